import { looksLikeXml, readServiceXml } from '../../nodes/shared/transport/xml';

// A logged production exchange, api.exotel.com 2023-11-08 (SMS send without `.json`).
const SMS_SEND =
	'<?xml version="1.0" encoding="utf-8"?>\n<TwilioResponse>\n' +
	'  <SMSMessage>\n' +
	'    <Sid>b6a3ee8b5b6b4e1f0d1c1a7e8c9d17bn</Sid>\n' +
	'    <AccountSid>exotel_acct</AccountSid>\n' +
	'    <From>08047112233/EXOTEL</From>\n' +
	'    <To>08884733565</To>\n' +
	'    <DateCreated>2023-11-08 10:59:38</DateCreated>\n' +
	'    <DateUpdated>2023-11-08 10:59:38</DateUpdated>\n' +
	'    <DateSent/>\n' +
	'    <Body>Hello&#xA;world &lt;3</Body>\n' +
	'    <Direction>outbound-api</Direction>\n' +
	'    <Uri>/v1/Accounts/x/SMS/Messages/abc.json</Uri>\n' +
	'    <ApiVersion/>\n' +
	'    <Price/>\n' +
	'    <Status>queued</Status>\n' +
	'    <SmsUnits/>\n' +
	'    <DetailedStatusCode>21010</DetailedStatusCode>\n' +
	'    <DetailedStatus>PENDING_TO_OPERATOR</DetailedStatus>\n' +
	'  </SMSMessage>\n' +
	'  <SMSMessage>\n' +
	'    <Sid>c7</Sid>\n' +
	'    <To>09876543210</To>\n' +
	'    <Body>Tom &amp; Jerry&#39;s &quot;deal&quot; &#x1F600;</Body>\n' +
	'    <Status>queued</Status>\n' +
	'    <SmsUnits>2</SmsUnits>\n' +
	'    <DetailedStatusCode>21010</DetailedStatusCode>\n' +
	'  </SMSMessage>\n' +
	'</TwilioResponse>\n';

// support.exotel.com article 48282 (the XML answer to a connect-call request).
const CALL =
	'<?xml version="1.0" encoding="UTF-8"?>\n<TwilioResponse>\n<Call>\n' +
	'<Sid>b6cfaf5b3fd5d5cb6a6f5d3a7f0e1d9a</Sid>\n' +
	'<ParentCallSid/>\n' +
	'<DateCreated>2023-11-08 11:02:10</DateCreated>\n' +
	'<DateUpdated>2023-11-08 11:02:10</DateUpdated>\n' +
	'<AccountSid>exotel_acct</AccountSid>\n' +
	'<To>08884733565</To>\n' +
	'<From>09876543210</From>\n' +
	'<PhoneNumberSid>08047112233</PhoneNumberSid>\n' +
	'<Status>in-progress</Status>\n' +
	'<StartTime>2023-11-08 11:02:10</StartTime>\n' +
	'<EndTime/>\n' +
	'<Duration/>\n' +
	'<Price/>\n' +
	'<Direction>outbound-api</Direction>\n' +
	'<AnsweredBy/>\n' +
	'<ForwardedFrom/>\n' +
	'<CallerName/>\n' +
	'<Uri>/v1/Accounts/exotel_acct/Calls/b6cfaf5b3fd5d5cb6a6f5d3a7f0e1d9a</Uri>\n' +
	'<SubresourceUris>\n' +
	'<Notifications>/v1/Accounts/exotel_acct/Calls/b6cfaf5b3fd5d5cb6a6f5d3a7f0e1d9a/Notifications</Notifications>\n' +
	'<Recordings>/v1/Accounts/exotel_acct/Calls/b6cfaf5b3fd5d5cb6a6f5d3a7f0e1d9a/Recordings</Recordings>\n' +
	'</SubresourceUris>\n' +
	'</Call>\n</TwilioResponse>';

// A logged production exchange, api.exotel.com 2023-11-08 (SMS send on an empty balance).
const BALANCE_ERROR =
	'<?xml version="1.0" encoding="UTF-8"?>\n<TwilioResponse><RestException><Status>403</Status>' +
	'<Message>Insufficient balance to send the SMS</Message></RestException></TwilioResponse>';

// A call-testing script (Code 35008).
const CODED_ERROR =
	'<TwilioResponse><RestException><Code>35008</Code><Status>403</Status>' +
	'<Message>Call cannot be made: the number is on the DND list</Message></RestException></TwilioResponse>';

const wrap = (inner: string) => `<TwilioResponse><Call>${inner}</Call></TwilioResponse>`;
const callOf = (inner: string) => (readServiceXml(wrap(inner)) as { Call: Record<string, unknown> }).Call;

describe('readServiceXml: recorded answers', () => {
	it('reads an SMS send as the JSON array of { SMSMessage }, one per message, in order', () => {
		expect(readServiceXml(SMS_SEND)).toEqual([
			{
				SMSMessage: {
					Sid: 'b6a3ee8b5b6b4e1f0d1c1a7e8c9d17bn',
					AccountSid: 'exotel_acct',
					From: '08047112233/EXOTEL',
					To: '08884733565',
					DateCreated: '2023-11-08 10:59:38',
					DateUpdated: '2023-11-08 10:59:38',
					DateSent: null,
					Body: 'Hello\nworld <3',
					Direction: 'outbound-api',
					Uri: '/v1/Accounts/x/SMS/Messages/abc.json',
					ApiVersion: null,
					Price: null,
					Status: 'queued',
					SmsUnits: null,
					DetailedStatusCode: 21010,
					DetailedStatus: 'PENDING_TO_OPERATOR',
				},
			},
			{
				SMSMessage: {
					Sid: 'c7',
					To: '09876543210',
					Body: 'Tom & Jerry\'s "deal" 😀',
					Status: 'queued',
					SmsUnits: 2,
					DetailedStatusCode: 21010,
				},
			},
		]);
	});

	it('reads a call as { Call } with SubresourceUris as a nested object and numbers kept as strings', () => {
		const answer = readServiceXml(CALL) as { Call: Record<string, unknown> };
		expect(Object.keys(answer)).toEqual(['Call']);
		expect(answer.Call).toMatchObject({
			Sid: 'b6cfaf5b3fd5d5cb6a6f5d3a7f0e1d9a',
			ParentCallSid: null,
			To: '08884733565',
			PhoneNumberSid: '08047112233',
			Status: 'in-progress',
			Duration: null,
			Uri: '/v1/Accounts/exotel_acct/Calls/b6cfaf5b3fd5d5cb6a6f5d3a7f0e1d9a',
			SubresourceUris: {
				Notifications: '/v1/Accounts/exotel_acct/Calls/b6cfaf5b3fd5d5cb6a6f5d3a7f0e1d9a/Notifications',
				Recordings: '/v1/Accounts/exotel_acct/Calls/b6cfaf5b3fd5d5cb6a6f5d3a7f0e1d9a/Recordings',
			},
		});
	});

	it('reads errors as { RestException } with numeric Status and Code', () => {
		expect(readServiceXml(BALANCE_ERROR)).toEqual({
			RestException: { Status: 403, Message: 'Insufficient balance to send the SMS' },
		});
		expect(readServiceXml(CODED_ERROR)).toEqual({
			RestException: {
				Code: 35008,
				Status: 403,
				Message: 'Call cannot be made: the number is on the DND list',
			},
		});
	});

	it('reads a single SMSMessage as a one-entry array', () => {
		const answer = readServiceXml(
			'<TwilioResponse><SMSMessage><Sid>a</Sid><SmsUnits>1</SmsUnits></SMSMessage></TwilioResponse>',
		);
		expect(answer).toEqual([{ SMSMessage: { Sid: 'a', SmsUnits: 1 } }]);
	});

	it('converts only all-digit DetailedStatusCode / SmsUnits / Status / Code values', () => {
		const sms = readServiceXml(
			'<TwilioResponse><SMSMessage><DetailedStatusCode>21 010</DetailedStatusCode>' +
				'<SmsUnits>1.5</SmsUnits><To>0123</To></SMSMessage></TwilioResponse>',
		);
		expect(sms).toEqual([{ SMSMessage: { DetailedStatusCode: '21 010', SmsUnits: '1.5', To: '0123' } }]);
		const error = readServiceXml(
			'<TwilioResponse><RestException><Status>40x</Status><Code/></RestException></TwilioResponse>',
		);
		expect(error).toEqual({ RestException: { Status: '40x', Code: null } });
	});

	it('reads any other children of the root as an object, repeated names as an array', () => {
		expect(
			readServiceXml(
				'<TwilioResponse><Account><Sid>s</Sid></Account><Note>a</Note><Note/><Note>c</Note></TwilioResponse>',
			),
		).toEqual({ Account: { Sid: 's' }, Note: ['a', null, 'c'] });
		expect(readServiceXml('<TwilioResponse/>')).toEqual({});
		expect(readServiceXml('<TwilioResponse></TwilioResponse>')).toEqual({});
	});
});

describe('readServiceXml: odd but valid input', () => {
	it('ignores attributes, including > and /> inside quoted values', () => {
		const call = callOf(
			'<Sid kind="a>b" other=\'x/>y\'>s1</Sid>' + '<Empty note="/>" />' + '<Uri\n  a="1"\n>u</Uri>',
		);
		expect(call).toEqual({ Sid: 's1', Empty: null, Uri: 'u' });
		expect(readServiceXml('<TwilioResponse xmlns:x="urn:a>b"><Call/></TwilioResponse>')).toEqual({ Call: null });
	});

	it('takes CDATA verbatim, entities and markup included', () => {
		expect(callOf('<Body><![CDATA[a &amp; <b> ]] ]]></Body>')).toEqual({ Body: 'a &amp; <b> ]] ' });
		expect(callOf('<Body>x <![CDATA[<y>]]> &lt;z&gt;</Body>')).toEqual({ Body: 'x <y> <z>' });
		expect(callOf('<Body><![CDATA[]]></Body>')).toEqual({ Body: '' });
	});

	it('skips comments everywhere, even ones holding markup', () => {
		const text =
			'<!-- before --><?xml version="1.0"?><!-- <TwilioResponse> -->' +
			'<TwilioResponse><!-- x --><Call><Sid><!-- <a> -->s<!--y--></Sid><!----></Call></TwilioResponse><!-- after -->';
		expect(readServiceXml(text)).toEqual({ Call: { Sid: 's' } });
	});

	it('reads nested elements recursively', () => {
		expect(callOf('<A><B><C>deep</C><D/></B><E>e</E></A><F>f</F>')).toEqual({
			A: { B: { C: 'deep', D: null }, E: 'e' },
			F: 'f',
		});
	});

	it('reads every empty form as null but keeps meaningful whitespace', () => {
		expect(callOf('<A/><B /><C></C><D>  \n\t </D><E>&#xA;</E><F> x </F><G><![CDATA[ ]]></G>')).toEqual({
			A: null,
			B: null,
			C: null,
			D: null,
			E: '\n',
			F: ' x ',
			G: ' ',
		});
	});

	it('decodes named, decimal and hex entities, astral ones included, and keeps unknown ones', () => {
		expect(callOf('<Body>&lt;&gt;&amp;&quot;&apos;</Body>')).toEqual({ Body: '<>&"\'' });
		expect(callOf('<Body>&#10;&#39;&#8377;&#128512;</Body>')).toEqual({ Body: "\n'₹😀" });
		expect(callOf('<Body>&#xA;&#x27;&#x20B9;&#x1F600;&#X41;</Body>')).toEqual({ Body: "\n'₹😀&#X41;" });
		expect(callOf('<Body>&nbsp;&copy &amp;amp; & &#; &#x; &#xZZ;</Body>')).toEqual({
			Body: '&nbsp;&copy &amp; & &#; &#x; &#xZZ;',
		});
		// references no string can hold stay as written instead of throwing
		expect(callOf('<Body>&#x110000;&#0;&#xD800;&#99999999999999999999;</Body>')).toEqual({
			Body: '&#x110000;&#0;&#xD800;&#99999999999999999999;',
		});
	});

	it('accepts a BOM and whitespace before the prolog, and whitespace after the root', () => {
		expect(readServiceXml('\uFEFF' + BALANCE_ERROR)).toEqual(readServiceXml(BALANCE_ERROR));
		expect(readServiceXml(' \r\n\t' + BALANCE_ERROR + '\r\n  ')).toEqual(readServiceXml(BALANCE_ERROR));
		expect(readServiceXml('\uFEFF\n' + CODED_ERROR)).toMatchObject({ RestException: { Code: 35008 } });
	});

	it('keeps a tag named __proto__ as a plain key', () => {
		const call = callOf('<__proto__><polluted>yes</polluted></__proto__>');
		expect(Object.getPrototypeOf(call)).toBe(Object.prototype);
		expect(Object.keys(call)).toEqual(['__proto__']);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('reads 100 SMSMessages in a ~50 kB body', () => {
		const entries = Array.from(
			{ length: 100 },
			(_, n) =>
				`<SMSMessage><Sid>sid${n}</Sid><To>0${9000000000 + n}</To><Body>${'Hi &amp; bye '.repeat(30)}#${n}</Body>` +
				`<Status>queued</Status><SmsUnits>3</SmsUnits><DetailedStatusCode>21010</DetailedStatusCode></SMSMessage>`,
		);
		const text = `<?xml version="1.0"?><TwilioResponse>${entries.join('\n')}</TwilioResponse>`;
		expect(text.length).toBeGreaterThan(45_000);
		const answer = readServiceXml(text) as Array<{ SMSMessage: Record<string, unknown> }>;
		expect(answer).toHaveLength(100);
		expect(answer[57].SMSMessage).toMatchObject({ Sid: 'sid57', To: '09000000057', SmsUnits: 3 });
		expect(answer[57].SMSMessage.Body).toBe(`${'Hi & bye '.repeat(30)}#57`);
	});
});

describe('readServiceXml: not a service answer', () => {
	it.each([
		['the empty string', ''],
		['whitespace', '  \n '],
		['plain text', 'Service Unavailable'],
		['JSON', '{"RestException":{"Status":403}}'],
		['HTML', '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>'],
		['another root', '<Response><Call><Sid>s</Sid></Call></Response>'],
		['an HTML root', '<html><body><TwilioResponse/></body></html>'],
		['mismatched closing tags', '<TwilioResponse><Call><Sid>s</Status></Call></TwilioResponse>'],
		['crossed elements', '<TwilioResponse><Call><Sid></Call></Sid></TwilioResponse>'],
		['a stray closing tag', '</TwilioResponse>'],
		['an unclosed root', '<TwilioResponse><Call/>'],
		['two roots', '<TwilioResponse/><TwilioResponse/>'],
		['text after the root', '<TwilioResponse/>trailing'],
		['text before the root', 'x<TwilioResponse/>'],
		['an empty tag', '<TwilioResponse><></TwilioResponse>'],
		['a bad tag name', '<TwilioResponse><1a/></TwilioResponse>'],
		['a space before the name', '< TwilioResponse/>'],
		['an unterminated attribute', '<TwilioResponse a="x></TwilioResponse>'],
		['an unterminated comment', '<TwilioResponse><!-- </TwilioResponse>'],
		['an unterminated CDATA', '<TwilioResponse><Call><![CDATA[x</Call></TwilioResponse>'],
		['an unterminated prolog', '<?xml version="1.0"'],
		['CDATA outside the root', '<![CDATA[x]]><TwilioResponse/>'],
		['a DOCTYPE', '<!DOCTYPE TwilioResponse><TwilioResponse/>'],
		['a lone <', '<'],
	])('gives undefined for %s', (_, text) => {
		expect(readServiceXml(text)).toBeUndefined();
	});

	it('gives undefined for nesting far deeper than any answer, without overflowing the stack', () => {
		const deep = `<TwilioResponse>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</TwilioResponse>`;
		expect(readServiceXml(deep)).toBeUndefined();
	});

	it.each([
		['SMS send', SMS_SEND],
		['call', CALL],
		['balance error', BALANCE_ERROR],
		['coded error', CODED_ERROR],
	])('gives undefined for every truncation of the %s sample, never throwing', (_, sample) => {
		const end = sample.trimEnd().length;
		for (let cut = 0; cut < end; cut++) {
			expect(readServiceXml(sample.slice(0, cut))).toBeUndefined();
		}
		expect(readServiceXml(sample.slice(0, end))).toBeDefined();
	});

	it('never throws when any single character of a sample is dropped', () => {
		for (const sample of [SMS_SEND, CALL, CODED_ERROR]) {
			for (let at = 0; at < sample.length; at++) {
				expect(() => readServiceXml(sample.slice(0, at) + sample.slice(at + 1))).not.toThrow();
			}
		}
	});
});

describe('looksLikeXml', () => {
	it('is true when the first non-whitespace character is <', () => {
		expect(looksLikeXml(BALANCE_ERROR)).toBe(true);
		expect(looksLikeXml('\uFEFF \n<TwilioResponse/>')).toBe(true);
		expect(looksLikeXml('<html>')).toBe(true);
	});

	it('is false otherwise', () => {
		expect(looksLikeXml('')).toBe(false);
		expect(looksLikeXml('   ')).toBe(false);
		expect(looksLikeXml('{"Call":{}}')).toBe(false);
		expect(looksLikeXml('[{"SMSMessage":{}}]')).toBe(false);
		expect(looksLikeXml('Service Unavailable <b>')).toBe(false);
	});
});
