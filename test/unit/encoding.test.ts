import { encodeForm, toFormPairs } from '../../nodes/shared/transport/encoding';

describe('bracket form encoding', () => {
	it('repeats To[] for arrays of scalars, in order', () => {
		expect(toFormPairs({ From: 'EXOTEL', To: ['+919876543210', '+919876543211'], Body: 'hi' })).toEqual([
			['From', 'EXOTEL'],
			['To[]', '+919876543210'],
			['To[]', '+919876543211'],
			['Body', 'hi'],
		]);
	});

	it('nests Messages[i][Field] for arrays of objects and Params[Key] for objects', () => {
		const pairs = toFormPairs({
			Messages: [{ To: '+911', Body: 'a' }, { To: '+912', Body: 'b', From: 'X' }],
			ShortenUrlParams: { Header: 'HDR', Tracking: true },
		});
		expect(pairs).toEqual([
			['Messages[0][To]', '+911'],
			['Messages[0][Body]', 'a'],
			['Messages[1][To]', '+912'],
			['Messages[1][Body]', 'b'],
			['Messages[1][From]', 'X'],
			['ShortenUrlParams[Header]', 'HDR'],
			['ShortenUrlParams[Tracking]', 'true'],
		]);
	});

	it('leaves out undefined, null and empty values', () => {
		expect(toFormPairs({ A: undefined, B: null, C: '', D: 0, E: false })).toEqual([
			['D', '0'],
			['E', 'false'],
		]);
	});

	it('encodes as application/x-www-form-urlencoded that round-trips', () => {
		const encoded = encodeForm({ Body: 'Hello & welcome: 50% off ₹', To: ['+919876543210'] });
		const decoded = [...new URLSearchParams(encoded).entries()];
		expect(decoded).toEqual([
			['Body', 'Hello & welcome: 50% off ₹'],
			['To[]', '+919876543210'],
		]);
	});
});
