import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** Credential fields that hold secrets, across every Exotel credential type. */
const SECRET_FIELDS = ['apiToken', 'token', 'password', 'sessionId', 'webhookSigningSecret'];

/** Every form a secret can take on the wire: itself and inside a basic-auth header. */
export function secretsOf(credentials: ICredentialDataDecryptedObject | undefined): string[] {
	if (!credentials) return [];
	const secrets = SECRET_FIELDS.map((field) => credentials[field])
		.filter((value): value is string => typeof value === 'string' && value.length >= 4);
	const user = credentials.apiKey ?? credentials.username;
	const password = credentials.apiToken ?? credentials.password;
	if (typeof user === 'string' && typeof password === 'string' && password) {
		secrets.push(Buffer.from(`${user}:${password}`).toString('base64'));
	}
	return secrets;
}

export function redact<T>(value: T, secrets: string[]): T {
	if (secrets.length === 0 || value === undefined || value === null) return value;
	if (typeof value === 'string') {
		let text: string = value;
		for (const secret of secrets) text = text.split(secret).join('***');
		return text as T;
	}
	if (typeof value === 'object') {
		return JSON.parse(redact(JSON.stringify(value), secrets)) as T;
	}
	return value;
}
