// Each applet's answer, field by field, in the service's own terms.
import type { INodeProperties } from 'n8n-workflow';

import { CALL_FLOW_LIMITS } from '../../../shared/callFlows/answers';

const forApplet = (applet: string, more: Record<string, string[]> = {}) => ({ displayOptions: { show: { applet: [applet], ...more } } });

export const passthruFields: INodeProperties[] = [
	{
		displayName: 'Branch',
		name: 'branch',
		type: 'options',
		options: [
			{ name: 'First (200)', value: 'first', description: 'The branch the applet wires to 200' },
			{ name: 'Second (302)', value: 'second', description: 'The branch the applet wires to 302' },
			{ name: 'Switch Case Keyword', value: 'select', description: 'A keyword a Switch Case applet after this Passthru branches on' },
		],
		default: 'first',
		...forApplet('passthru'),
	},
	{
		displayName: 'Keyword',
		name: 'select',
		type: 'string',
		default: '',
		// not required: a Branch set by an expression shows it to n8n's checks, and the answer refuses an empty one
		placeholder: 'vip',
		description: 'The case of the Switch Case applet to take',
		...forApplet('passthru', { branch: ['select'] }),
	},
];

export const connectFields: INodeProperties[] = [
	{
		displayName: 'Answer As',
		name: 'connectAs',
		type: 'options',
		options: [
			{ name: 'Connect JSON', value: 'json', description: "For the programmable Connect applet's URL (it sends Exotel-Version 1.0)" },
			{ name: 'Plain Number', value: 'dialWhom', description: 'For the classic Dial Whom URL: the numbers as text' },
		],
		default: 'json',
		...forApplet('connect'),
	},
	{
		displayName: 'Numbers',
		name: 'numbers',
		type: 'string',
		default: '',
		required: true,
		placeholder: '+919876543210, +919812340001',
		description: 'The numbers to dial, in order, comma-separated: E.164 is safest; sip:ID dials a SIP user. Empty dials no one (the applet\'s "we didn\'t dial anyone" path).',
		...forApplet('connect'),
	},
	{
		displayName: 'Caller ID',
		name: 'callerId',
		type: 'string',
		default: '',
		placeholder: '+918041234567',
		description: 'The ExoPhone the callee sees, in E.164 (outgoing_phone_number); empty keeps the number the call came in on',
		...forApplet('connect', { connectAs: ['json'] }),
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		...forApplet('connect', { connectAs: ['json'] }),
		options: [
			{ displayName: 'Call Start Playback', name: 'playbackValue', type: 'string', default: '', description: 'Text spoken, or the audio URL played, when the callee answers (start_call_playback)' },
			{
				displayName: 'Call Start Playback To',
				name: 'playbackTo',
				type: 'options',
				options: [
					{ name: 'Both', value: 'both' },
					{ name: 'Callee', value: 'callee' },
				],
				default: 'both',
				description: 'Who hears the playback; the service refuses the caller alone',
			},
			{
				displayName: 'Call Start Playback Type',
				name: 'playbackType',
				type: 'options',
				options: [
					{ name: 'Audio URL', value: 'audio_url' },
					{ name: 'Text', value: 'text' },
				],
				default: 'text',
			},
			{ displayName: 'Dial Events URL', name: 'dialPassthruEventUrl', type: 'string', default: '', placeholder: 'https://n8n.example.com/webhook/dial-events', description: "Where the service posts this connect's dial, ringing, answered and terminal events (dial_passthru_event_url)" },
			{ displayName: 'Fetch After Each Attempt', name: 'fetchAfterAttempt', type: 'boolean', default: false, description: 'Whether the service asks this URL again after each failed attempt, so the workflow picks the next number' },
			{
				displayName: 'Max Conversation Duration (Seconds)',
				name: 'maxConversationDuration',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: CALL_FLOW_LIMITS.maxConversationSeconds },
				default: 3600,
			},
			{
				displayName: 'Max Parallel Attempts',
				name: 'maxParallelAttempts',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: CALL_FLOW_LIMITS.maxParallelAttempts },
				default: 2,
				description: 'Rings this many numbers at once (parallel_ringing); the first to answer gets the call',
			},
			{
				displayName: 'Max Ringing Duration (Seconds)',
				name: 'maxRingingDuration',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: CALL_FLOW_LIMITS.maxRingingSeconds },
				default: 30,
			},
			{
				displayName: 'Music On Hold',
				name: 'musicOnHold',
				type: 'options',
				options: [
					{ name: 'Custom Tone', value: 'custom_tone' },
					{ name: 'Default Tone', value: 'default_tone' },
					{ name: 'Operator Tone', value: 'operator_tone' },
				],
				default: 'default_tone',
			},
			{ displayName: 'Music On Hold URL', name: 'musicOnHoldUrl', type: 'string', default: '', description: 'The audio of a custom tone' },
			{ displayName: 'Record', name: 'record', type: 'boolean', default: false, description: 'Whether to record the conversation (an account without recording refuses it)' },
			{
				displayName: 'Recording Channels',
				name: 'recordingChannels',
				type: 'options',
				options: [
					{ name: 'Dual', value: 'dual', description: 'Caller and callee on separate tracks' },
					{ name: 'Single', value: 'single' },
				],
				default: 'single',
			},
		],
	},
];

export const gatherFields: INodeProperties[] = [
	{
		displayName: 'Prompt Type',
		name: 'promptType',
		type: 'options',
		options: [
			{ name: 'Audio URL', value: 'audioUrl' },
			{ name: 'Text', value: 'text' },
		],
		default: 'text',
		...forApplet('gather'),
	},
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Please enter your order number followed by the hash key',
		description: 'What the caller hears before pressing keys: the text spoken, or the audio URL',
		...forApplet('gather'),
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		...forApplet('gather'),
		options: [
			{
				displayName: 'Finish On Key',
				name: 'finishOnKey',
				type: 'options',
				options: [
					{ name: 'Hash (#)', value: '#' },
					{ name: 'None', value: 'none', description: 'Only Max Input Digits or the timeout end the input' },
					{ name: 'Star Key', value: '*' },
				],
				default: '#',
			},
			{ displayName: 'Input Timeout (Seconds)', name: 'inputTimeout', type: 'number', typeOptions: { minValue: 1, maxValue: 60 }, default: 5, description: 'How long the service waits for a key; above 6 was refused once' },
			{ displayName: 'Max Input Digits', name: 'maxInputDigits', type: 'number', typeOptions: { minValue: 1, maxValue: CALL_FLOW_LIMITS.maxInputDigits }, default: 1 },
			{ displayName: 'Repeat Menu', name: 'repeatMenu', type: 'number', typeOptions: { minValue: 0, maxValue: 10 }, default: 2, description: 'How many times the prompt is repeated when nothing is pressed' },
			{ displayName: 'Repeat Prompt', name: 'repeatPrompt', type: 'string', default: '', description: 'What is said when the prompt is repeated (text or audio URL, as Prompt Type)' },
		],
	},
];

export const greetingFields: INodeProperties[] = [
	{
		displayName: 'Say',
		name: 'greetingType',
		type: 'options',
		options: [
			{ name: 'Audio URLs', value: 'audioUrls', description: 'Audio files played in order (WAV 8 kHz mono)' },
			{ name: 'Text', value: 'text', description: 'Text spoken to the caller' },
		],
		default: 'text',
		...forApplet('greeting'),
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		placeholder: 'Your order 4711 was shipped today',
		...forApplet('greeting', { greetingType: ['text'] }),
	},
	{
		displayName: 'Audio URLs',
		name: 'audioUrls',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		placeholder: 'https://example.com/audio/order-shipped.wav',
		description: 'One URL a line; the service caches each by its file name',
		...forApplet('greeting', { greetingType: ['audioUrls'] }),
	},
];
