/** A form value as the v1 API takes it: scalars, arrays (`To[]`) and objects (`Messages[0][To]`). */
export type FormValue = string | number | boolean | null | undefined | FormValue[] | { [key: string]: FormValue };

/**
 * Flattens a value into ordered form pairs with bracket keys, the way the v1 API reads them:
 * arrays of scalars repeat `key[]`, arrays of objects and objects nest `key[i][field]`.
 * Empty values (undefined, null, '') are left out so optional fields are never sent blank.
 */
export function toFormPairs(fields: Record<string, FormValue>): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	const walk = (key: string, value: FormValue) => {
		if (value === undefined || value === null || value === '') return;
		if (Array.isArray(value)) {
			value.forEach((entry, index) => {
				const isScalar = entry === null || typeof entry !== 'object';
				walk(isScalar ? `${key}[]` : `${key}[${index}]`, entry);
			});
		} else if (typeof value === 'object') {
			for (const [field, entry] of Object.entries(value)) walk(`${key}[${field}]`, entry);
		} else {
			pairs.push([key, String(value)]);
		}
	};
	for (const [key, value] of Object.entries(fields)) walk(key, value);
	return pairs;
}

export function encodeForm(fields: Record<string, FormValue>): string {
	return new URLSearchParams(toFormPairs(fields)).toString();
}

export interface MultipartFile {
	name: string;
	filename: string;
	contentType: string;
	data: Buffer;
}

/**
 * A multipart/form-data body built by hand, so the bytes on the wire do not depend on which
 * FormData implementation the n8n instance ships.
 */
export function encodeMultipart(
	fields: Record<string, string | undefined>,
	files: MultipartFile[],
	boundary = `----n8nExotel${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`,
): { body: Buffer; contentType: string } {
	const parts: Buffer[] = [];
	for (const [name, value] of Object.entries(fields)) {
		if (value === undefined || value === '') continue;
		parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
	}
	for (const file of files) {
		parts.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename.replace(/"/g, '')}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
			),
			file.data,
			Buffer.from('\r\n'),
		);
	}
	parts.push(Buffer.from(`--${boundary}--\r\n`));
	return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
