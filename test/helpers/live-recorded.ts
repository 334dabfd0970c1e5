/**
 * What the live Exotel service was recorded saying in public (../shared/notes/live-service.md),
 * each with where it was seen. Account ids, sids and numbers are the recordings' own or stand-ins of
 * the same shape; the shapes, names, types and encodings are as recorded.
 */

/** A logged production exchange: `POST /v1/Accounts/<sid>/Sms/send` (no suffix), api.exotel.com, 2023-11-08; `content-type: application/xml`. */
export const SMS_SEND_XML = `<?xml version="1.0" encoding="UTF-8"?>
<TwilioResponse>
 <SMSMessage>
  <Sid>b6ff6e3e3c4a4b2f9d7c1a2b3c4d17b1</Sid>
  <AccountSid>acme1</AccountSid>
  <From>08047112233/EXOTEL</From>
  <To>08884733565</To>
  <DateCreated>2023-11-08 10:59:38</DateCreated>
  <DateUpdated>2023-11-08 10:59:38</DateUpdated>
  <DateSent>1970-01-01 05:30:00</DateSent>
  <Body>Your OTP is 4821&#xA;Do not share it &lt;Acme&gt;</Body>
  <Direction>outbound-api</Direction>
  <Uri>/v1/Accounts/acme1/SMS/Messages/b6ff6e3e3c4a4b2f9d7c1a2b3c4d17b1.json</Uri>
  <ApiVersion/>
  <Price/>
  <Status>queued</Status>
  <SmsUnits/>
  <DetailedStatusCode>21010</DetailedStatusCode>
  <DetailedStatus>PENDING_TO_OPERATOR</DetailedStatus>
 </SMSMessage>
</TwilioResponse>`;

/** support.exotel.com article 48282: an error without the `.json` suffix (no Code). */
export const INSUFFICIENT_BALANCE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<TwilioResponse><RestException><Status>403</Status><Message>Insufficient balance to send the SMS</Message></RestException></TwilioResponse>`;

/** Live diagnostic notes quoting an answer with `.json`: `Code` optional and numeric. */
export const KYC_ERROR_JSON = { RestException: { Status: 403, Message: 'Your account is not yet KYC compliant', Code: 340030 } };

/** A call-testing script: `Calls/connect` refused for one caller number while others worked. */
export const CALLER_REFUSED_JSON = { RestException: { Status: 503, Message: 'Service Unavailable; ', Code: 35008 } };

/** A CRM's test "confirmed live 2026-08-23": the answer to a WhatsApp send. */
export const WHATSAPP_SEND_ANSWER = {
	request_id: '8b0e5a3c2d8f4c1e9a7b6c5d4e3f2a1b',
	method: 'POST',
	http_code: 202,
	metadata: { total: 1, success: 1, failed: 0 },
	response: { whatsapp: { messages: [{ code: 202, error_data: null, status: 'success', data: { sid: '0d9f7c2a1b3e4f5a6b7c8d9e0f1a2b3c' } }] } },
};

/** Exotel's "WhatsApp Cloud APIs" Postman collection: the send body. */
export const WHATSAPP_SEND_BODY = {
	custom_data: 'order-1182',
	status_callback: 'https://example.com/exotel/status',
	whatsapp: { messages: [{ from: '+918047112233', to: '+919876543210', content: { recipient_type: 'individual', type: 'text', text: { body: 'Hello' } } }] },
};

/** Captured production payloads in two projects: WhatsApp delivery reports (codes seen 30001, 30002, 30017, 30023). */
export const WHATSAPP_DLR_SENT = {
	whatsapp: {
		messages: [
			{
				callback_type: 'dlr',
				sid: '0d9f7c2a1b3e4f5a6b7c8d9e0f1a2b3c',
				to: '+919876543210',
				exo_status_code: 30001,
				exo_detailed_status: 'EX_MESSAGE_SENT',
				description: 'Message Sent',
				timestamp: '2026-08-23T00:13:07+05:30',
			},
		],
	},
};

/** The same report family with the code as text, as one of the two projects received it. */
export const WHATSAPP_DLR_DELIVERED_TEXT_CODE = {
	whatsapp: {
		messages: [
			{
				callback_type: 'dlr',
				sid: '0d9f7c2a1b3e4f5a6b7c8d9e0f1a2b3c',
				to: '+919876543210',
				exo_status_code: '30002',
				exo_detailed_status: 'EX_MESSAGE_DELIVERED',
				description: 'Message Delivered',
				timestamp: '2026-08-23T00:13:09+05:30',
			},
		],
	},
};

/** "parses a real inbound-message webhook payload" test (and EasyChat): an incoming WhatsApp message. */
export const WHATSAPP_INCOMING = {
	whatsapp: {
		messages: [
			{
				callback_type: 'incoming_message',
				sid: '5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b',
				from: '+919876543210',
				to: '+918047112233',
				timestamp: '2026-08-23T00:15:41+05:30',
				profile_name: 'Test User',
				content: { type: 'text', text: { body: 'Hello' } },
			},
		],
	},
};

/** The same, a reply: `content.context` names the message replied to. */
export function whatsappReply(inReplyTo: string, content: Record<string, unknown> = { type: 'text', text: { body: 'Yes' } }) {
	return {
		whatsapp: {
			messages: [
				{
					...WHATSAPP_INCOMING.whatsapp.messages[0],
					sid: '7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d',
					content: { ...content, context: { from: '+918047112233', id: inReplyTo } },
				},
			],
		},
	};
}

/** `frappe/crm`'s Exotel telephony handler: an answered call's status callback (form fields). */
export const ANSWERED_CALL_CALLBACK = {
	CallSid: 'c1f0e2d3b4a5968778695a4b3c2d1e0f',
	EventType: 'answered',
	Status: 'in-progress',
	DateCreated: '2026-08-23 10:59:38',
	DateUpdated: '2026-08-23 10:59:52',
	To: '08047112233',
	From: '09876543210',
	PhoneNumberSid: '08047112233',
	StartTime: '2026-08-23 10:59:38',
	EndTime: '',
	Direction: 'outbound-api',
	'Legs[0][OnCallDuration]': '0',
	'Legs[0][Status]': 'in-progress',
	'Legs[0][AnsweredBy]': 'NA',
	'Legs[1][OnCallDuration]': '0',
	'Legs[1][Status]': '',
	'Legs[1][AnsweredBy]': '',
};
