/* eslint-disable @n8n/community-nodes/no-restricted-globals -- polls with setTimeout; never shipped */
/**
 * Live mode (README, "Live mode"): the switch (option, CLI flag, setLive, control API, kept by
 * reset), XML answers of the v1 API on paths without `.json`, the live field values (national To,
 * `<number>/<HEADER>` From, the DateSent placeholder, India-time v1 dates and DateCreated filters), no
 * X-RateLimit-* headers and no signatures, the `whatsapp` envelope (send, webhook, delivery reports,
 * incoming messages and a person's replies), the answered call callback, and the refused caller.
 */
import { parseCliOptions, parseLiveOption } from './cli';
import { call as rawCall, basicOf } from './client';
import { SANDBOX_ACCOUNT, SANDBOX_REFUSED_CALLER } from './fixtures';
import { seededCallSid } from './handlers/calls';
import { Receiver, sandboxControl } from './receiver';
import { ExotelSandbox } from './server';
import { budget } from './timing';
import { twilioResponse } from './xml';

// ---------------------------------------------------------------- the answers, as the tests read them

/** An entry of an SMS send's answer. */
interface SmsEntry {
	SMSMessage: { To: string; From: string; DateSent: string | null; DateCreated: string };
}

/** A v1 call (Details only with details=true). */
interface V1Call {
	Sid: string;
	DateCreated: string;
	DateUpdated: string;
	StartTime: string;
	EndTime: string;
	Details?: { ConversationDuration: number; Leg1Status: string; Leg2Status: string | null; Legs: Array<{ Leg: { Id: number; OnCallDuration: number } }> };
}

/** A page of the bulk call query. */
interface CallPage {
	Metadata: { Total: number };
	Calls: V1Call[];
}

/** A v2 failure. */
interface V2Failure {
	response: { error_data: { description: string } };
}

/** The answer to an RCS send. */
interface RcsSent {
	response: { rcs: { messages: unknown[] } };
}

/** The answer to a WhatsApp send. */
interface WhatsAppSent {
	response: { whatsapp: { messages: Array<{ data: { sid: string } }> } };
}

/** The webhook configuration's answer. */
interface WebhookAnswer {
	response: { data: unknown };
}

/** A WhatsApp callback's body. */
interface WhatsAppPost {
	whatsapp: { messages: Array<{ content: unknown }> };
}

const A = SANDBOX_ACCOUNT;
const SID = A.accountSid;
const BASIC = basicOf(A.apiKey, A.apiToken);
const SEND = `/v1/Accounts/${SID}/Sms/send`;
const BULK = `/v1/Accounts/${SID}/Sms/bulksend`;
const CONNECT = `/v1/Accounts/${SID}/Calls/connect`;
const CALLS = `/v1/Accounts/${SID}/Calls.json`;
const MESSAGES = `/v2/accounts/${SID}/messages`;
const WA_WEBHOOK = `/v2/accounts/${SID}/whatsapp/webhook`;
const CHATAPP_WEBHOOK = `/v2/accounts/${SID}/chatapp/webhook`;
const FLOW = `http://my.exotel.com/${SID}/flowml/start_voice/926`;
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<TwilioResponse>';
const XML_TAIL = '</TwilioResponse>';
const HEX32 = /^[0-9a-f]{32}$/;
const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/;
const V1_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** Real ms per simulated ms: chat-app reports at 1, 2, 3 ms; a placed call answers at 5 ms. */
const SCALE = 0.001;
const IST_MS = 330 * 60_000;

let sandbox: ExotelSandbox;
let origin: string;
const rx = new Receiver();
let pathSeq = 0;
const fresh = (name: string) => `/${name}/${++pathSeq}`;

const api = <B = unknown>(method: string, path: string, options: { form?: Array<[string, string]>; json?: unknown; auth?: string | null } = {}) =>
	rawCall<B>(origin, method, path, {
		headers: options.auth === null ? {} : { authorization: options.auth ?? BASIC },
		form: options.form,
		json: options.json,
	});
const sms = <B = SmsEntry[]>(form: Array<[string, string]>, path = SEND) => api<B>('POST', path, { form });
const connect = <B = { Call: V1Call }>(form: Array<[string, string]>, path = CONNECT) => api<B>('POST', path, { form });
const CONNECT_BASE: Array<[string, string]> = [
	['From', '+919876500001'],
	['CallerId', '+918047112233'],
	['Url', FLOW],
];

/** `YYYY-MM-DD HH:MM:SS` (UTC) as the India wall-clock time the live service writes. */
const istOf = (utc: string) => new Date(Date.parse(`${utc.replace(' ', 'T')}Z`) + IST_MS).toISOString().slice(0, 19).replace('T', ' ');
/** A v1 date read as India wall-clock time: how far it is from now, in ms. */
const istDistanceFromNow = (text: string) => Math.abs(Date.parse(`${text.replace(' ', 'T')}Z`) - IST_MS - Date.now());

async function until<T>(get: () => T[], n: number, timeoutMs = 3000): Promise<T[]> {
	const deadline = Date.now() + budget(timeoutMs);
	while (get().length < n) {
		if (Date.now() > deadline) throw new Error(`expected ${n} items, got ${get().length}`);
		await new Promise((r) => setTimeout(r, 5));
	}
	return get();
}


const waText = (to: string, extra: Record<string, unknown> = {}) => ({
	from: '+919000000001',
	to,
	content: { type: 'text', text: { body: 'Hello' } },
	...extra,
});

beforeAll(async () => {
	await rx.start();
	sandbox = new ExotelSandbox({ timeScale: SCALE, live: true });
	origin = await sandbox.start();
});

afterAll(async () => {
	await sandbox.stop();
	await rx.stop();
});

beforeEach(() => {
	sandbox.reset();
});

afterEach(() => {
	// a test that looks at spec mode switches back
	sandbox.setLive(true);
	sandbox.setRateLimit(null);
});

// ---------------------------------------------------------------- the switch

describe('the switch', () => {
	it('is the constructor option live, off by default; setLive flips it and reset() keeps it', async () => {
		expect(new ExotelSandbox().live).toBe(false);
		expect(sandbox.live).toBe(true);
		sandbox.reset();
		expect(sandbox.live).toBe(true);
		sandbox.setLive(false);
		expect(sandbox.live).toBe(false);
		// at once: the next answer is JSON
		const res = await sms([['From', 'EXOSMS'], ['To', '+918884733565'], ['Body', 'x']]);
		expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
	});

	it('the control API reads and sets it: GET and POST /__sandbox/live', async () => {
		expect((await sandboxControl(origin, '/live')).body).toEqual({ ok: true, live: true });
		expect((await sandboxControl(origin, '/live', { live: false })).body).toEqual({ ok: true, live: false });
		expect(sandbox.live).toBe(false);
		expect((await sandboxControl(origin, '/reset', {})).status).toBe(200);
		expect((await sandboxControl(origin, '/live')).body).toEqual({ ok: true, live: false });
		const bad = await sandboxControl(origin, '/live', { live: 'yes' });
		expect(bad).toEqual({ status: 400, body: { ok: false, error: 'body must be JSON {live: true | false}' } });
		expect((await sandboxControl(origin, '/live', { live: true })).body).toEqual({ ok: true, live: true });
	});

	it('is the CLI flag --live (npm run sandbox -- --live; npm run dev reads the same)', () => {
		expect(parseCliOptions(['--live', '--port', '0']).live).toBe(true);
		expect(parseCliOptions([]).live).toBe(false);
		expect(parseLiveOption(['--rate-limit', 'documented', '--live'])).toBe(true);
		expect(() => parseLiveOption(['--live=yes'])).toThrow('--live takes no value');
	});
});

// ---------------------------------------------------------------- XML

describe('the XML writer', () => {
	it('writes keys as elements, null as an empty element, arrays inside their element, text escaped', () => {
		expect(twilioResponse({ Call: { Sid: 'a', To: null, Details: { Legs: [{ Leg: { Id: 1 } }, { Leg: { Id: 2 } }] }, Body: 'x < y & z > w\nnext\r' } })).toBe(
			`${XML_HEAD}<Call><Sid>a</Sid><To/><Details><Legs><Leg><Id>1</Id></Leg><Leg><Id>2</Id></Leg></Legs></Details><Body>x &lt; y &amp; z &gt; w&#xA;next&#xD;</Body></Call>${XML_TAIL}`,
		);
		// a list of bare objects: one element each, named after the list; an array at the top: its wrappers in turn
		expect(twilioResponse({ Calls: [{ Sid: 'a' }, { Sid: 'b' }], Tags: ['x'] })).toBe(`${XML_HEAD}<Calls><Call><Sid>a</Sid></Call><Call><Sid>b</Sid></Call></Calls><Tags><Tag>x</Tag></Tags>${XML_TAIL}`);
		expect(twilioResponse([{ SMSMessage: { Sid: 'a' } }, { SMSMessage: { Sid: null } }])).toBe(`${XML_HEAD}<SMSMessage><Sid>a</Sid></SMSMessage><SMSMessage><Sid/></SMSMessage>${XML_TAIL}`);
		// RestException: Status, Message, then Code
		expect(twilioResponse({ RestException: { Status: 400, Code: 40406, Message: 'Too many' } })).toBe(
			`${XML_HEAD}<RestException><Status>400</Status><Message>Too many</Message><Code>40406</Code></RestException>${XML_TAIL}`,
		);
	});
});

describe('v1 answers XML on paths without .json', () => {
	it('Sms/send: one <SMSMessage> with the JSON keys, live values, text escaped', async () => {
		const res = await sms([['From', '+918047090000'], ['To', '+91 88847 33565'], ['Body', 'Total < 5 & > 2\nThanks']]);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/xml');
		const [m] = sandbox.messages();
		const ist = istOf(m.dateCreated);
		expect(res.text).toBe(
			XML_HEAD +
				`<SMSMessage><Sid>${m.sid}</Sid><AccountSid>${SID}</AccountSid><From>08047090000/EXOSBX</From><To>08884733565</To>` +
				`<DateCreated>${ist}</DateCreated><DateUpdated>${ist}</DateUpdated><DateSent>1970-01-01 05:30:00</DateSent>` +
				'<Body>Total &lt; 5 &amp; &gt; 2&#xA;Thanks</Body><Direction>outbound-api</Direction>' +
				`<Uri>/v1/Accounts/${SID}/SMS/Messages/${m.sid}.json</Uri><ApiVersion/><Price/><Status>queued</Status><SmsUnits/>` +
				'<DetailedStatusCode>21010</DetailedStatusCode><DetailedStatus>PENDING_TO_OPERATOR</DetailedStatus></SMSMessage>' +
				XML_TAIL,
		);
		// the store keeps the spec's forms
		expect(m).toMatchObject({ to: '+918884733565', from: '+918047090000' });
	});

	it('Sms/bulksend: one <SMSMessage> per entry, failed ones with empty elements; 207 as in spec mode', async () => {
		const res = await sms(
			[
				['From', 'EXOSMS'],
				['Messages[0][To]', '+919812340001'],
				['Messages[0][Body]', 'one'],
				['Messages[1][To]', '+919812340002'],
				['Messages[1][Body]', ''],
			],
			BULK,
		);
		expect(res.status).toBe(207);
		expect(res.headers.get('content-type')).toBe('application/xml');
		const [m] = sandbox.messages();
		const ist = istOf(m.dateCreated);
		expect(res.text).toBe(
			XML_HEAD +
				`<SMSMessage><Sid>${m.sid}</Sid><AccountSid>${SID}</AccountSid><From>/EXOSMS</From><To>09812340001</To>` +
				`<DateCreated>${ist}</DateCreated><DateUpdated>${ist}</DateUpdated><DateSent>1970-01-01 05:30:00</DateSent>` +
				`<Body>one</Body><Direction>outbound-api</Direction><Uri>/v1/Accounts/${SID}/SMS/Messages/${m.sid}.json</Uri>` +
				'<ApiVersion/><Price/><Status>queued</Status><SmsUnits/><DetailedStatusCode>21010</DetailedStatusCode>' +
				'<DetailedStatus>PENDING_TO_OPERATOR</DetailedStatus></SMSMessage>' +
				`<SMSMessage><Sid/><AccountSid>${SID}</AccountSid><From>EXOSMS</From><To>09812340002</To>` +
				`<DateCreated>${ist}</DateCreated><DateUpdated>${ist}</DateUpdated><DateSent>1970-01-01 05:30:00</DateSent>` +
				'<Body></Body><Direction/><Uri/><ApiVersion/><Price/><Status>failed</Status><SmsUnits/><DetailedStatusCode>23000</DetailedStatusCode>' +
				'<DetailedStatus>FAILED_MISSING_BODY</DetailedStatus></SMSMessage>' +
				XML_TAIL,
		);
	});

	it('a path ending in .json answers JSON (Sms/send.json is served in live mode), with the live values', async () => {
		const res = await sms([['From', 'EXOSMS'], ['To[]', '+918884733565'], ['To[]', '+14155550100'], ['Body', 'x']], `${SEND}.json`);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
		expect(res.body.map((e) => [e.SMSMessage.To, e.SMSMessage.From, e.SMSMessage.DateSent])).toEqual([
			['08884733565', '/EXOSMS', '1970-01-01 05:30:00'],
			['+14155550100', '/EXOSMS', '1970-01-01 05:30:00'],
		]);
		expect(istDistanceFromNow(res.body[0].SMSMessage.DateCreated)).toBeLessThan(budget(5000));
		// spec mode has no Sms/send.json
		sandbox.setLive(false);
		expect((await sms([['From', 'EXOSMS'], ['To', '+918884733565'], ['Body', 'x']], `${SEND}.json`)).status).toBe(404);
	});

	it('Calls/connect: <Call> with empty elements for null, India-time dates', async () => {
		const res = await connect(CONNECT_BASE);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/xml');
		const m =
			/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<TwilioResponse><Call><Sid>([0-9a-f]{32})<\/Sid><ParentCallSid\/><DateCreated>([\d: -]{19})<\/DateCreated><DateUpdated>\2<\/DateUpdated><AccountSid>exotelsandbox1<\/AccountSid><To\/><From>\+919876500001<\/From><PhoneNumberSid>\+918047112233<\/PhoneNumberSid><Status>in-progress<\/Status><StartTime>\2<\/StartTime><EndTime\/><Duration\/><Price\/><Direction>outbound-api<\/Direction><AnsweredBy\/><RecordingUrl\/><Uri>\/v1\/Accounts\/exotelsandbox1\/Calls\.json\/\1<\/Uri><\/Call><\/TwilioResponse>$/.exec(
				res.text,
			);
		expect(m).not.toBeNull();
		expect(istDistanceFromNow(m![2])).toBeLessThan(budget(5000));
		// Calls/connect.json answers the same call as JSON
		const json = await connect(CONNECT_BASE, `${CONNECT}.json`);
		expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
		expect(json.body.Call).toMatchObject({ Status: 'in-progress', To: null, Direction: 'outbound-api' });
	});

	it('one call without .json answers XML, nested Details as nested elements; with .json JSON', async () => {
		const sid = seededCallSid(3);
		const json = await api<{ Call: V1Call }>('GET', `/v1/Accounts/${SID}/Calls/${sid}.json?details=true`);
		expect(json.status).toBe(200);
		const xml = await api('GET', `/v1/Accounts/${SID}/Calls/${sid}?details=true`);
		expect(xml.status).toBe(200);
		expect(xml.headers.get('content-type')).toBe('application/xml');
		const c = json.body.Call;
		const details = c.Details!;
		const legs = details.Legs.map((l) => `<Leg><Id>${l.Leg.Id}</Id><OnCallDuration>${l.Leg.OnCallDuration}</OnCallDuration></Leg>`).join('');
		const leg2 = details.Leg2Status === null ? '<Leg2Status/>' : `<Leg2Status>${details.Leg2Status}</Leg2Status>`;
		expect(xml.text).toContain(
			`<Details><ConversationDuration>${details.ConversationDuration}</ConversationDuration><Leg1Status>${details.Leg1Status}</Leg1Status>${leg2}<Legs>${legs}</Legs></Details></Call>${XML_TAIL}`,
		);
		expect(xml.text.startsWith(`${XML_HEAD}<Call><Sid>${sid}</Sid><ParentCallSid/><DateCreated>${c.DateCreated}</DateCreated>`)).toBe(true);
		// the bulk query without .json answers XML too
		const bulk = await api('GET', `/v1/Accounts/${SID}/Calls?PageSize=1`);
		expect(bulk.headers.get('content-type')).toBe('application/xml');
		expect(bulk.text).toMatch(/^<\?xml[^>]*>\n<TwilioResponse><Metadata><Total>\d+<\/Total><PageSize>1<\/PageSize>.*<\/Metadata><Calls><Call><Sid>[0-9a-f]{32}<\/Sid>.*<\/Call><\/Calls><\/TwilioResponse>$/);
	});

	it('errors: <RestException> with the same HTTP status, Code only when the error has one; .json keeps JSON', async () => {
		const unauthorized = await api('POST', SEND, { form: [['From', 'X']], auth: null });
		expect(unauthorized.status).toBe(401);
		expect(unauthorized.headers.get('content-type')).toBe('application/xml');
		expect(unauthorized.text).toBe(
			`${XML_HEAD}<RestException><Status>401</Status><Message>Authentication is required to view this page.</Message></RestException>${XML_TAIL}`,
		);
		const many: Array<[string, string]> = [['From', 'EXOSMS'], ['Body', 'x'], ...Array.from({ length: 101 }, (_, i): [string, string] => ['To[]', `+9198123${String(i).padStart(5, '0')}`])];
		const tooMany = await sms(many);
		expect(tooMany.status).toBe(400);
		expect(tooMany.text).toBe(
			`${XML_HEAD}<RestException><Status>400</Status><Message>Too many recipients: 101 given, at most 100 are allowed in one request</Message><Code>40406</Code></RestException>${XML_TAIL}`,
		);
		const missing = await sms([['From', 'EXOSMS']], `${SEND}.json`);
		expect(missing.status).toBe(400);
		expect(missing.body).toEqual({ RestException: { Status: 400, Message: expect.stringContaining('Missing parameter: To') } });
		const unknown = await api('GET', `/v1/Accounts/${SID}/Nothing`);
		expect(unknown.status).toBe(404);
		expect(unknown.text).toMatch(/^<\?xml[^>]*>\n<TwilioResponse><RestException><Status>404<\/Status><Message>No such endpoint: GET \/v1\/Accounts\/exotelsandbox1\/Nothing<\/Message><\/RestException><\/TwilioResponse>$/);
	});

	it('an injected fault answers XML unless it gives its own body; v2 paths stay JSON', async () => {
		sandbox.injectFaults({ kind: 'status', status: 503 }, 1, { pathIncludes: 'Sms/send' });
		const faulted = await sms([['From', 'EXOSMS'], ['To', '+918884733565'], ['Body', 'x']]);
		expect(faulted.status).toBe(503);
		expect(faulted.text).toBe(`${XML_HEAD}<RestException><Status>503</Status><Message>Service Unavailable (injected by the sandbox)</Message></RestException>${XML_TAIL}`);
		sandbox.injectFaults({ kind: 'status', status: 500, body: { oops: true } }, 1, { pathIncludes: 'Sms/send' });
		const given = await sms([['From', 'EXOSMS'], ['To', '+918884733565'], ['Body', 'x']]);
		expect(given.body).toEqual({ oops: true });
		const v2 = await api('POST', MESSAGES, { json: {} });
		expect(v2.status).toBe(400);
		expect(v2.headers.get('content-type')).toBe('application/json; charset=utf-8');
	});
});

// ---------------------------------------------------------------- live values

describe('live field values', () => {
	it('To national for Indian numbers only; From <number>/EXOSBX or /<HEADER>; DateSent placeholder; India-time dates', async () => {
		const res = await sms(
			[['From', '918047090000'], ['To[]', '918884733565'], ['To[]', '8884733565'], ['To[]', '+14155550100'], ['Body', 'x']],
			`${SEND}.json`,
		);
		expect(res.body.map((e) => e.SMSMessage.To)).toEqual(['08884733565', '08884733565', '+14155550100']);
		expect(res.body[0].SMSMessage.From).toBe('08047090000/EXOSBX');
		const [m] = sandbox.messages();
		expect(res.body[0].SMSMessage.DateCreated).toBe(istOf(m.dateCreated));
		// spec mode: as before
		sandbox.setLive(false);
		const spec = await sms([['From', 'EXOSMS'], ['To', '+918884733565'], ['Body', 'x']]);
		expect(spec.body[0].SMSMessage).toMatchObject({ To: '+918884733565', From: 'EXOSMS/EXOSBX', DateSent: null });
		// its own message, the last stored (messages()[1] was the live request's second: a second earlier under load)
		expect(spec.body[0].SMSMessage.DateCreated).toBe(sandbox.messages().at(-1)!.dateCreated);
	});

	it('the SMS status callback sends DateSent in India time', async () => {
		const path = fresh('sms');
		await sms([['From', 'EXOSMS'], ['To', '+918884733565'], ['Body', 'x'], ['StatusCallback', rx.url(path)]]);
		const [got] = await until(() => rx.at(path), 1);
		const form = Object.fromEntries(new URLSearchParams(got.text));
		expect(form.DateSent).toMatch(V1_DATE);
		expect(istDistanceFromNow(form.DateSent)).toBeLessThan(budget(5000));
	});

	it('call dates read in India time, and DateCreated filters of the bulk query are read in India time', async () => {
		const sid = seededCallSid(7);
		const live = (await api<{ Call: V1Call }>('GET', `/v1/Accounts/${SID}/Calls/${sid}.json`)).body.Call;
		sandbox.setLive(false);
		const spec = (await api<{ Call: V1Call }>('GET', `/v1/Accounts/${SID}/Calls/${sid}.json`)).body.Call;
		expect(live.DateCreated).toBe(istOf(spec.DateCreated));
		expect(live.StartTime).toBe(istOf(spec.StartTime));
		expect(live.DateUpdated).toBe(istOf(spec.DateUpdated));
		expect(live.EndTime).toBe(istOf(spec.EndTime));
		const bounds = (date: string) => `${CALLS}?${new URLSearchParams({ DateCreated: `gte:${date};lte:${date}` }).toString()}`;
		// spec mode: UTC bounds
		expect((await api<CallPage>('GET', bounds(spec.DateCreated))).body.Calls.map((c) => c.Sid)).toContain(sid);
		expect((await api<CallPage>('GET', bounds(live.DateCreated))).body.Calls.map((c) => c.Sid)).not.toContain(sid);
		sandbox.setLive(true);
		const found = (await api<CallPage>('GET', bounds(live.DateCreated))).body.Calls;
		expect(found.map((c) => c.Sid)).toContain(sid);
		expect(found.find((c) => c.Sid === sid)!.DateCreated).toBe(live.DateCreated);
		expect((await api<CallPage>('GET', bounds(spec.DateCreated))).body.Calls.map((c) => c.Sid)).not.toContain(sid);
	});
});

// ---------------------------------------------------------------- headers and signatures

describe('no rate-limit headers, no signatures', () => {
	it('no X-RateLimit-* on any answer in live mode; a 429 keeps Retry-After', async () => {
		sandbox.setRateLimit({ mode: 'documented', limits: { sms: 1 } });
		sandbox.setLive(false);
		const spec = await api('GET', CALLS);
		expect(spec.headers.get('x-ratelimit-limit')).toBe('200');
		sandbox.setLive(true);
		const accepted = await sms([['From', 'EXOSMS'], ['To', '+918884733565'], ['Body', 'x']]);
		expect(accepted.status).toBe(200);
		const refused = await sms([['From', 'EXOSMS'], ['To', '+918884733565'], ['Body', 'x']]);
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('30');
		expect(refused.headers.get('content-type')).toBe('application/xml');
		expect(refused.text).toContain('<RestException><Status>429</Status><Message>Rate limit exceeded. Try again in 30 seconds.</Message><Code>RATE_LIMIT_EXCEEDED</Code></RestException>');
		// Sms/send.json counts in the same category, and answers JSON
		const refusedJson = await sms<{ RestException: unknown }>([['From', 'EXOSMS'], ['To', '+918884733565'], ['Body', 'x']], `${SEND}.json`);
		expect(refusedJson.status).toBe(429);
		expect(refusedJson.body.RestException).toMatchObject({ Status: 429, Code: 'RATE_LIMIT_EXCEEDED' });
		const other = await api('GET', CALLS);
		expect(other.status).toBe(200);
		for (const res of [accepted, refused, refusedJson, other]) {
			expect([...res.headers.keys()].filter((name) => name.startsWith('x-ratelimit-'))).toEqual([]);
		}
	});

	it('callbacks carry no X-Service-Signature (unless one is given explicitly)', async () => {
		const inPath = fresh('in');
		await api('PUT', WA_WEBHOOK, { json: { whatsapp: { webhook: { incoming_message_url: rx.url(inPath) } } } });
		const attempt = await sandbox.postChatAppIncoming({ type: 'text', text: 'hi' });
		expect(attempt).toMatchObject({ status: 200, signed: false });
		expect(rx.at(inPath)[0].headers['x-service-signature']).toBeUndefined();
		await sandbox.postChatAppIncoming({ type: 'text', signature: 'sha256=given' });
		expect(rx.at(inPath)[1].headers['x-service-signature']).toBe('sha256=given');
	});
});

// ---------------------------------------------------------------- WhatsApp

describe('WhatsApp send (POST /v2/accounts/<sid>/messages)', () => {
	it('takes {custom_data, status_callback, whatsapp: {messages}} and answers 202 under response.whatsapp', async () => {
		const res = await api('POST', MESSAGES, {
			json: {
				custom_data: 'req-1',
				status_callback: 'http://127.0.0.1:9/request',
				whatsapp: {
					messages: [
						waText('+919812340001'),
						waText('+919800000000'),
						waText('+919812340003', { custom_data: 'own', status_callback: 'http://127.0.0.1:9/own' }),
					],
				},
			},
		});
		expect(res.status).toBe(202);
		const [first, third] = sandbox.chatAppMessages();
		expect(res.body).toEqual({
			request_id: expect.stringMatching(HEX32),
			method: 'POST',
			http_code: 202,
			metadata: { total: 3, success: 2, failed: 1 },
			response: {
				whatsapp: {
					messages: [
						{ code: 202, error_data: null, status: 'success', data: { sid: first.sid } },
						{
							code: 400,
							error_data: { code: 30012, message: 'INVALID_RECIPIENT', description: '+919800000000 is not on the chat app, so the message cannot be delivered' },
							status: 'failed',
							data: null,
						},
						{ code: 202, error_data: null, status: 'success', data: { sid: third.sid } },
					],
				},
			},
		});
		expect(first).toMatchObject({ to: '+919812340001', customData: 'req-1', statusCallback: 'http://127.0.0.1:9/request', contentType: 'text' });
		expect(third).toMatchObject({ customData: 'own', statusCallback: 'http://127.0.0.1:9/own' });
	});

	it.each([
		['the spec’s top-level chat-app body', waText('+919812340001'), /from, to, content at the top level is not a send this API takes/],
		['content checked as the spec’s', { whatsapp: { messages: [waText('+919812340001', { content: { type: 'text', text: {} } })] } }, /^whatsapp\.messages\[0\]\.content\.text\.body is required$/],
		['a bad to', { whatsapp: { messages: [waText('0981')] } }, /^whatsapp\.messages\[0\]\.to must be an E\.164 number/],
		['too many buttons', { whatsapp: { messages: [waText('+919812340001', { content: { type: 'interactive', interactive: { type: 'button', body: { text: 'b' }, action: { buttons: [1, 2, 3, 4].map((i) => ({ type: 'reply', reply: { id: `b${i}`, title: 'T' } })) } } } })] } }, /^whatsapp\.messages\[0\]\.content\.interactive\.action\.buttons holds 4 buttons; at most 3 are allowed$/],
		['no messages', { whatsapp: { messages: [] } }, /^whatsapp\.messages must hold at least 1 messages/],
		['rcs and whatsapp together', { rcs: { messages: [] }, whatsapp: { messages: [] } }, /mixes an RCS send/],
		['neither', { sms: {} }, /either rcs .* or whatsapp/],
	])('refuses %s with 400, storing nothing', async (_what, body, description) => {
		const res = await api<V2Failure>('POST', MESSAGES, { json: body });
		expect(res.status).toBe(400);
		expect(res.body.response.error_data.description).toMatch(description);
		expect(sandbox.chatAppMessages()).toEqual([]);
	});

	it('RCS sends work as in spec mode', async () => {
		const res = await api<RcsSent>('POST', MESSAGES, {
			json: { rcs: { messages: [{ from: 'exotel_sandbox_bot', to: '+919812340001', content: { type: 'template', template: { name: 'order_update', variables: {} } } }] } },
		});
		expect(res.status).toBe(202);
		expect(res.body.response.rcs.messages[0]).toEqual({ code: 200, error_data: null, status: 'success', data: { sid: expect.stringMatching(HEX32) } });
	});
});

describe('WhatsApp webhook configuration', () => {
	it('PUT whatsapp/webhook stores it (chatAppWebhook()); GET and DELETE work there; chatapp/webhook is 404', async () => {
		const webhook = { incoming_message_url: 'http://127.0.0.1:9/in', status_callback_url: 'http://127.0.0.1:9/status', verify_token: 'tok' };
		const res = await api('PUT', WA_WEBHOOK, { json: { whatsapp: { webhook } } });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			request_id: expect.stringMatching(HEX32),
			method: 'PUT',
			http_code: 200,
			response: { code: 200, status: 'success', data: { whatsapp: { webhook } } },
		});
		expect(sandbox.chatAppWebhook()).toEqual(webhook);
		expect((await api<WebhookAnswer>('GET', WA_WEBHOOK)).body.response.data).toEqual({ whatsapp: { webhook } });
		const bad = await api<V2Failure>('PUT', WA_WEBHOOK, { json: { chatapp: { webhook } } });
		expect(bad.status).toBe(400);
		expect(bad.body.response.error_data.description).toBe('whatsapp is required');
		const old = await api('PUT', CHATAPP_WEBHOOK, { json: { chatapp: { webhook } } });
		expect(old.status).toBe(404);
		expect((await api<WebhookAnswer>('DELETE', WA_WEBHOOK)).body.response.data).toEqual({ whatsapp: { webhook: null } });
		expect(sandbox.chatAppWebhook()).toBeNull();
	});

	it('in spec mode the whatsapp path is unknown (404 whatever the credentials), as before', async () => {
		sandbox.setLive(false);
		for (const auth of [undefined, null]) {
			const res = await api<V2Failure>('PUT', WA_WEBHOOK, { json: { whatsapp: { webhook: { incoming_message_url: 'http://127.0.0.1:9/in' } } }, auth });
			expect(res.status).toBe(404);
			expect(res.body.response.error_data.description).toBe(`No such endpoint: PUT ${WA_WEBHOOK}`);
		}
		expect((await api('PUT', CHATAPP_WEBHOOK, { json: { chatapp: { webhook: { incoming_message_url: 'http://127.0.0.1:9/in' } } } })).status).toBe(200);
	});
});

describe('WhatsApp callbacks', () => {
	it('delivery reports: {whatsapp: {messages: [dlr]}} at the spec mode’s times, unsigned, "30003" a string', async () => {
		const path = fresh('dlr');
		const res = await api<WhatsAppSent>('POST', MESSAGES, { json: { custom_data: 'c-1', whatsapp: { messages: [waText('+919812340001', { status_callback: rx.url(path) })] } } });
		const sid = res.body.response.whatsapp.messages[0].data.sid;
		const got = await until(() => rx.at(path), 3);
		for (const r of got) expect(r.headers['x-service-signature']).toBeUndefined();
		const entries = got.map((r) => JSON.parse(r.text).whatsapp.messages[0]);
		const entry = (code: number | string, status: string, description: string) => ({
			callback_type: 'dlr',
			sid,
			to: '+919812340001',
			exo_status_code: code,
			exo_detailed_status: status,
			description,
			timestamp: expect.stringMatching(ISO_OFFSET),
			custom_data: 'c-1',
		});
		expect(entries).toEqual([
			entry(30001, 'EX_MESSAGE_SENT', 'Message Sent'),
			entry(30002, 'EX_MESSAGE_DELIVERED', 'Message Delivered'),
			entry('30003', 'EX_MESSAGE_SEEN', 'Message Seen'),
		]);
		expect(Object.keys(JSON.parse(got[0].text))).toEqual(['whatsapp']);
		// the sandbox logs an attempt once its answer is in, which may be after the receiver has it
		const logged = await sandbox.waitForCallbacks((log) => log.filter((a) => a.kind === 'chatapp-status').length >= 3, budget(3000));
		expect(logged.filter((a) => a.kind === 'chatapp-status').map((a) => a.signed)).toEqual([false, false, false]);
	});

	it('reports go to the configured status_callback_url; a …0088 recipient gets 30001 then 30004', async () => {
		const path = fresh('status');
		await api('PUT', WA_WEBHOOK, { json: { whatsapp: { webhook: { incoming_message_url: rx.url(fresh('in')), status_callback_url: rx.url(path) } } } });
		await api('POST', MESSAGES, { json: { whatsapp: { messages: [waText('+919812340088')] } } });
		const got = await until(() => rx.at(path), 2);
		// a failed report ends the message: once nothing is scheduled or in flight, no third can come
		await until(() => (sandbox.pendingCallbacks === 0 ? [true] : []), 1);
		expect(rx.at(path)).toHaveLength(2);
		expect(got.map((r) => JSON.parse(r.text).whatsapp.messages[0].exo_status_code)).toEqual([30001, 30004]);
	});

	it('incoming messages: {whatsapp: {messages: [incoming_message]}} to incoming_message_url', async () => {
		const inPath = fresh('in');
		await api('PUT', WA_WEBHOOK, { json: { whatsapp: { webhook: { incoming_message_url: rx.url(inPath) } } } });
		await sandbox.postChatAppIncoming({ type: 'text', text: 'Hello', from: '+919812345678', to: '+918047090000', name: 'Test User' });
		const [got] = rx.json(inPath);
		expect(got).toEqual({
			whatsapp: {
				messages: [
					{
						callback_type: 'incoming_message',
						sid: expect.stringMatching(HEX32),
						from: '+919812345678',
						to: '+918047090000',
						timestamp: expect.stringMatching(ISO_OFFSET),
						profile_name: 'Test User',
						content: { type: 'text', text: { body: 'Hello' } },
					},
				],
			},
		});
		// a list row is interactive, with the context of the message replied to
		await sandbox.postChatAppIncoming({ type: 'list_reply', context: { id: 'wamid-1' } });
		expect(rx.json<WhatsAppPost>(inPath)[1].whatsapp.messages[0].content).toEqual({
			type: 'interactive',
			interactive: { type: 'list_reply', list_reply: { id: 'row-1', title: 'Tomorrow 10-12', description: 'Morning slot' } },
			context: { from: '+918047090000', id: 'wamid-1' },
		});
	});

	it('a person’s replies: text, a reply button, a list row, each with content.context, routed as in spec mode', async () => {
		const own = fresh('own');
		const configured = fresh('configured');
		await api('PUT', WA_WEBHOOK, { json: { whatsapp: { webhook: { incoming_message_url: rx.url(fresh('in')), status_callback_url: rx.url(configured) } } } });
		const buttons = {
			type: 'interactive',
			interactive: {
				type: 'button',
				body: { text: 'Approve?' },
				action: { buttons: [{ type: 'reply', reply: { id: 'approve', title: 'Approve' } }, { type: 'reply', reply: { id: 'reject', title: 'Reject' } }] },
			},
		};
		const list = {
			type: 'interactive',
			interactive: {
				type: 'list',
				body: { text: 'Pick a slot' },
				action: { button: 'Slots', sections: [{ rows: [{ id: 'am', title: 'Morning', description: '9-12' }, { id: 'pm', title: 'Afternoon' }] }] },
			},
		};
		const res = await api<WhatsAppSent>('POST', MESSAGES, {
			json: {
				whatsapp: {
					messages: [
						waText('+919812340001', { content: buttons, status_callback: rx.url(own) }),
						waText('+919812340002', { content: list }),
					],
				},
			},
		});
		const [buttonSid, listSid] = res.body.response.whatsapp.messages.map((m) => m.data.sid);
		await until(() => rx.at(own), 3);
		await until(() => rx.at(configured), 3);
		rx.clear();

		const button = await sandbox.reply({ sid: buttonSid, button: 'approve', name: 'Asha' });
		expect(button).toMatchObject({ kind: 'chatapp-reply', url: rx.url(own), signed: false, messageSid: buttonSid });
		expect(JSON.parse(button.body)).toEqual({
			whatsapp: {
				messages: [
					{
						callback_type: 'incoming_message',
						sid: expect.stringMatching(HEX32),
						from: '+919812340001',
						to: '+919000000001',
						timestamp: expect.stringMatching(ISO_OFFSET),
						profile_name: 'Asha',
						content: {
							type: 'interactive',
							interactive: { type: 'button_reply', button_reply: { id: 'approve', title: 'Approve' } },
							context: { from: '+919000000001', id: buttonSid },
						},
					},
				],
			},
		});
		expect(rx.at(own)[0].headers['x-service-signature']).toBeUndefined();

		// no status_callback of its own: to the configured status_callback_url
		const row = await sandbox.reply({ sid: listSid, listRow: 'am' });
		expect(row.url).toBe(rx.url(configured));
		expect(JSON.parse(row.body).whatsapp.messages[0].content).toEqual({
			type: 'interactive',
			interactive: { type: 'list_reply', list_reply: { id: 'am', title: 'Morning', description: '9-12' } },
			context: { from: '+919000000001', id: listSid },
		});
		const text = await sandbox.reply({ to: '+919812340002', text: 'later' });
		expect(JSON.parse(text.body).whatsapp.messages[0]).toMatchObject({
			from: '+919812340002',
			profile_name: 'Sandbox User',
			content: { type: 'text', text: { body: 'later' }, context: { from: '+919000000001', id: listSid } },
		});
	});
});

// ---------------------------------------------------------------- voice

describe('voice', () => {
	it('an answered callback has EventType=answered, Status=in-progress and empty leg Status; dates in India time', async () => {
		const path = fresh('voice');
		const res = await connect([
			...CONNECT_BASE,
			['StatusCallback', rx.url(path)],
			['StatusCallbackEvents[]', 'answered'],
			['StatusCallbackEvents[]', 'terminal'],
		]);
		const dateCreated = /<DateCreated>([^<]+)<\/DateCreated>/.exec(res.text)![1];
		const got = await until(() => rx.at(path), 2);
		const [answered, terminal] = got.map((r) => new URLSearchParams(r.text));
		expect(answered.get('EventType')).toBe('answered');
		expect(answered.get('Status')).toBe('in-progress');
		expect(answered.get('Legs[0][Status]')).toBe('');
		expect(answered.get('EndTime')).toBe('');
		expect(answered.get('DateCreated')).toBe(dateCreated);
		expect(answered.get('StartTime')).toBe(dateCreated);
		expect(istDistanceFromNow(answered.get('DateUpdated')!)).toBeLessThan(budget(5000));
		expect(terminal.get('EventType')).toBe('terminal');
		expect(terminal.get('Status')).toBe('completed');
		expect(terminal.get('Legs[0][Status]')).toBe('completed');
		expect(got[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
	});

	it(`refuses the caller ${SANDBOX_REFUSED_CALLER}: 503, Code 35008, XML without .json; nothing placed`, async () => {
		const path = fresh('refused');
		const form: Array<[string, string]> = [['From', SANDBOX_REFUSED_CALLER], ...CONNECT_BASE.slice(1), ['StatusCallback', rx.url(path)]];
		const res = await connect(form);
		expect(res.status).toBe(503);
		expect(res.headers.get('content-type')).toBe('application/xml');
		expect(res.text).toBe(`${XML_HEAD}<RestException><Status>503</Status><Message>Service Unavailable; </Message><Code>35008</Code></RestException>${XML_TAIL}`);
		const json = await connect(form, `${CONNECT}.json`);
		expect(json.status).toBe(503);
		expect(json.body).toEqual({ RestException: { Status: 503, Message: 'Service Unavailable; ', Code: 35008 } });
		// as CallerId too, in national form
		expect((await connect([['From', '+919876500001'], ['CallerId', '08047119999'], ['Url', FLOW]])).status).toBe(503);
		// others still work
		expect((await connect(CONNECT_BASE)).status).toBe(200);
		// spec mode: the same refusal in JSON
		sandbox.setLive(false);
		const spec = await connect(form);
		expect(spec.status).toBe(503);
		expect(spec.body).toEqual({ RestException: { Status: 503, Message: 'Service Unavailable; ', Code: 35008 } });
		const placed = (await api<CallPage>('GET', `${CALLS}?${new URLSearchParams({ From: SANDBOX_REFUSED_CALLER }).toString()}`)).body;
		expect(placed.Metadata.Total).toBe(0);
		// nothing placed, so nothing scheduled: no status callback can come
		expect(sandbox.pendingCallbacks).toBe(0);
		expect(rx.at(path)).toEqual([]);
	});
});
