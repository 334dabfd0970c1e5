import type { INode } from 'n8n-workflow';

import { LIMITS } from '../../nodes/shared/rules/limits';
import { addMonths, characterCount, dateWindowProblem, fieldsError, formatServiceDate, monthWindows, normalizePhone, parseServiceDate, problemWith } from '../../nodes/shared/rules/validation';

const node: INode = {
	id: '1',
	name: 'Exotel Messaging',
	type: 'n8n-nodes-exotel.exotelMessaging',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

describe('validation', () => {
	it('names the field and the limit for lengths', () => {
		expect(problemWith('x'.repeat(2001), { label: 'Body', maxLength: LIMITS.sms.bodyLength })).toBe(
			'Body is 2001 characters; the limit is 2000',
		);
		expect(problemWith('x'.repeat(2000), { label: 'Body', maxLength: LIMITS.sms.bodyLength })).toBeUndefined();
		expect(problemWith('ab', { label: 'Name', minLength: 3 })).toBe('Name is 2 characters; it needs at least 3');
	});

	it('counts characters as code points, not UTF-16 units', () => {
		// 1,999 letters and one emoji: 2000 characters, 2001 UTF-16 units.
		const atLimit = `${'x'.repeat(1999)}😀`;
		expect(atLimit.length).toBe(2001);
		expect(characterCount(atLimit)).toBe(2000);
		expect(problemWith(atLimit, { label: 'Body', maxLength: LIMITS.sms.bodyLength })).toBeUndefined();
		expect(problemWith(`${atLimit}😀`, { label: 'Body', maxLength: LIMITS.sms.bodyLength })).toBe(
			'Body is 2001 characters; the limit is 2000',
		);
		// Flags and skin tones are several code points each; a lone surrogate counts as one.
		expect(characterCount('🇮🇳')).toBe(2);
		expect(characterCount('\ud83d')).toBe(1);
		expect(characterCount('नमस्ते')).toBe(6);
		expect(problemWith('😀😀', { label: 'Name', minLength: 3 })).toBe('Name is 2 characters; it needs at least 3');
	});

	it('checks required, ranges, integers, counts and enums', () => {
		expect(problemWith('', { label: 'To', required: true })).toBe('To is required');
		expect(problemWith(undefined, { label: 'To' })).toBeUndefined();
		expect(problemWith(14401, { label: 'Time Limit', max: 14400 })).toBe('Time Limit is 14401; the maximum is 14400');
		expect(problemWith(1.5, { label: 'Retries', integer: true, min: 0, max: 3 })).toBe('Retries must be a whole number (got 1.5)');
		expect(problemWith([1, 2, 3, 4], { label: 'Buttons', maxItems: 3 })).toBe('Buttons has 4 entries; the limit is 3');
		expect(problemWith('urgent', { label: 'Priority', oneOf: ['normal', 'high'] })).toBe(
			'Priority must be one of normal, high (got "urgent")',
		);
	});

	it('checks E.164 strictly and phone numbers leniently', () => {
		expect(problemWith('+919876543210', { label: 'To', format: 'e164' })).toBeUndefined();
		expect(problemWith('09876543210', { label: 'To', format: 'e164' })).toMatch(/E\.164/);
		expect(problemWith('09876543210', { label: 'To', format: 'phone' })).toBeUndefined();
		expect(problemWith('not a number', { label: 'To', format: 'phone' })).toMatch(/phone number/);
		expect(normalizePhone('+91 98765-43210')).toBe('+919876543210');
	});

	it('checks every entry of a list', () => {
		expect(problemWith(['+919876543210', '12'], { label: 'A-Party Numbers', format: 'e164' })).toBe(
			'A-Party Numbers [1] must be an E.164 number such as +919876543210 (got "12")',
		);
	});

	it('builds an error naming the item', () => {
		const error = fieldsError(node, 4, [
			['ok', { label: 'From', required: true }],
			['', { label: 'To', required: true }],
		]);
		expect(error?.message).toBe('To is required (item 4)');
		expect(error?.context.itemIndex).toBe(4);
		expect(fieldsError(node, 0, [['ok', { label: 'From', required: true }]])).toBeUndefined();
	});
});

describe('history windows (calendar months)', () => {
	const at = (text: string) => parseServiceDate(text)!;
	const rule = { fromLabel: 'Created After', toLabel: 'Created Before', historyMonths: 6, spanMonths: 1 };
	const now = at('2026-11-24 07:30:00');

	it('adds calendar months, kept inside the month', () => {
		expect(formatServiceDate(addMonths(at('2026-01-31 10:00:00'), 1))).toBe('2026-02-28 10:00:00');
		expect(formatServiceDate(addMonths(at('2026-11-24 07:30:00'), -6))).toBe('2026-05-24 07:30:00');
		expect(formatServiceDate(addMonths(at('2026-03-31 00:00:00'), -1))).toBe('2026-02-28 00:00:00');
		expect(parseServiceDate('2026-01-05T10:30:00')).toBeUndefined();
	});

	it('refuses a bound before the history and a range over a month, and accepts exactly a month', () => {
		expect(dateWindowProblem(at('2026-05-24 07:29:59'), undefined, rule, now)).toBe(
			'Created After is 2026-05-24 07:29:59; the service keeps 6 months of history (nothing before 2026-05-24 07:30:00)',
		);
		expect(dateWindowProblem(at('2026-05-24 07:30:00'), undefined, rule, now)).toBeUndefined();
		expect(dateWindowProblem(at('2026-10-01 00:00:00'), at('2026-11-01 00:00:00'), rule, now)).toBeUndefined();
		expect(dateWindowProblem(at('2026-10-01 00:00:00'), at('2026-11-01 00:00:01'), rule, now)).toMatch(/^Created After to Created Before spans 32 days; the limit is 1 month per request/);
		expect(dateWindowProblem(at('2026-10-01 00:00:00'), at('2026-11-20 00:00:00'), rule, now, true)).toBeUndefined();
		expect(dateWindowProblem(at('2026-10-02 00:00:00'), at('2026-10-01 00:00:00'), rule, now)).toMatch(/is before Created After/);
	});

	it('splits a range into contiguous month-sized windows', () => {
		const windows = monthWindows(at('2026-06-15 00:00:00'), at('2026-08-20 12:00:00'), 1).map(([a, b]) => [formatServiceDate(a), formatServiceDate(b)]);
		expect(windows).toEqual([
			['2026-06-15 00:00:00', '2026-07-14 23:59:59'],
			['2026-07-15 00:00:00', '2026-08-14 23:59:59'],
			['2026-08-15 00:00:00', '2026-08-20 12:00:00'],
		]);
	});
});
