// What the service asks a call-flow URL while a call runs (Passthru, Connect, Gather, Greeting), read into the package's call keys.
import type { IDataObject } from 'n8n-workflow';

import type { Applet } from '../shared/callFlows/answers';
import { E164 } from '../shared/rules/validation';
import { callItem, secondsOf, textOf } from '../shared/output/vocabulary';
import { nestBracketKeys } from '../shared/webhooks/respond';

/** The trunk prefix and country the service's numbers imply when they come in the national form (`07799828555`). */
export const NATIONAL_FORM = { trunkPrefix: '0', countryCode: '91' };

/** `EndTime` while the call runs: a constant placeholder, not a time (`0000-00-00 00:00:00` in older captures). */
const END_TIME_PLACEHOLDERS: readonly string[] = Object.freeze(['1970-01-01 05:30:00', '0000-00-00 00:00:00']);

/**
 * A number in E.164 beside the one received: the national form with its trunk 0 gets the country
 * code, `+` and 8 to 15 digits are kept, `sip:` and anything else is null (not a phone number).
 */
export function e164Of(value: unknown, countryCode = NATIONAL_FORM.countryCode): string | null {
	const text = textOf(value)?.replace(/[\s\-().]/g, '');
	if (!text) return null;
	if (E164.test(text)) return text;
	if (/^00[1-9]\d{7,14}$/.test(text)) return `+${text.slice(2)}`;
	if (text.startsWith(NATIONAL_FORM.trunkPrefix) && /^0[1-9]\d{5,13}$/.test(text)) return `+${countryCode}${text.slice(1)}`;
	if (/^[1-9]\d{9,14}$/.test(text)) return `+${text}`;
	return null;
}

/** `digits` comes inside literal double quotes (`"89"`); the keys pressed, without them. */
export function digitsOf(value: unknown): string | null {
	const text = textOf(value);
	if (text === null) return null;
	const unquoted = text.replace(/^"(.*)"$/s, '$1');
	return unquoted === '' ? null : unquoted;
}

/** The legs of a connect (`Legs[0][Number]`, flat or already nested), each in the package's words. */
function legsOf(params: IDataObject): IDataObject[] {
	const legs = params.Legs;
	const list = Array.isArray(legs) ? legs : legs && typeof legs === 'object' ? Object.values(legs) : [];
	return (list as IDataObject[])
		.filter((leg) => leg && typeof leg === 'object')
		.map((leg) => ({
			number: textOf(leg.Number),
			numberE164: e164Of(leg.Number),
			onCallDuration: secondsOf(leg.OnCallDuration),
			callerId: textOf(leg.CallerId),
			status: textOf(leg.Status),
		}));
}

/**
 * A call-flow request as an item: the call keys of every call item first (`callSid`, `status`,
 * `from`, `to`, `direction`, …), numbers as received with E.164 beside them, what the applet adds,
 * and the request's parameters untouched under `raw`. Query and form alike; a parameter the
 * service did not send is null.
 */
export function callFlowItem(applet: Applet, received: IDataObject, countryCode = NATIONAL_FORM.countryCode): IDataObject {
	const params = nestBracketKeys(received);
	// `CallFrom`/`CallTo` and `From`/`To` name the same call, with and without the trunk 0
	const from = textOf(params.CallFrom) ?? textOf(params.From);
	const to = textOf(params.CallTo) ?? textOf(params.To);
	const endTime = textOf(params.EndTime);
	return callItem(
		{
			callSid: textOf(params.CallSid),
			status: textOf(params.CallStatus),
			from,
			to,
			direction: textOf(params.Direction),
			startTime: textOf(params.StartTime),
			endTime: endTime !== null && END_TIME_PLACEHOLDERS.includes(endTime) ? null : endTime,
			duration: secondsOf(params.DialCallDuration),
			recordingUrl: textOf(params.RecordingUrl),
		},
		received,
		{
			applet,
			fromE164: e164Of(from, countryCode),
			toE164: e164Of(to, countryCode),
			digits: digitsOf(params.digits ?? params.Digits),
			callType: textOf(params.CallType),
			dialCallStatus: textOf(params.DialCallStatus),
			dialWhomNumber: textOf(params.DialWhomNumber),
			dialWhomNumberE164: e164Of(params.DialWhomNumber, countryCode),
			legs: legsOf(params),
			customField: textOf(params.CustomField),
			flowId: textOf(params.flow_id),
			tenantId: textOf(params.tenant_id),
			forwardedFrom: textOf(params.ForwardedFrom),
			outgoingPhoneNumber: textOf(params.OutgoingPhoneNumber),
			created: textOf(params.Created),
			currentTime: textOf(params.CurrentTime),
		},
	);
}
