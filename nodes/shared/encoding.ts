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
