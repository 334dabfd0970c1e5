/**
 * DLT pre-flight (nodes/ExotelMessaging/dlt.ts): a message against its registered content template,
 * by the public rules (operators' and SMS providers' DLT guides): the static text character for
 * character (case, spaces, punctuation, line breaks), each {#var#} at most 30 characters, a template
 * without variables only its exact text. The sandbox scrubs with a regular expression of its own
 * (sandbox/dlt.ts): both must agree.
 */
import { compileTemplate, dltProblem, matchTemplate, type DltMatch } from '../../nodes/ExotelMessaging/dlt';
import { dltMatches, parseDltTemplate } from '../../sandbox/dlt';

const ORDER = 'Dear {#var#}, your order {#var#} of Rs. {#var#} has shipped. - Acme Retail';
const OTP = 'Your OTP for login is {#var#}. Do not share it with anyone. - Acme';

function problemOf(template: string, body: string, shortened = false): string | undefined {
	const compiled = compileTemplate(template);
	const match = matchTemplate(compiled, body, shortened);
	return match.matches ? undefined : dltProblem(match as Extract<DltMatch, { matches: false }>, compiled, body, 'Body');
}

describe('a message that matches', () => {
	it.each([
		['variables in the middle', ORDER, 'Dear Asha, your order ORD-4721 of Rs. 499 has shipped. - Acme Retail', ['Asha', 'ORD-4721', '499']],
		['a variable at the start', '{#var#} is your OTP. - Acme', '482913 is your OTP. - Acme', ['482913']],
		['a variable at the end', 'Track your parcel: {#var#}', 'Track your parcel: AWB 9911223344', ['AWB 9911223344']],
		['only a variable', '{#var#}', 'anything at all', ['anything at all']],
		['a template without variables, its exact text', 'Your account is now active. - Acme', 'Your account is now active. - Acme', []],
		['an empty variable', 'Hello {#var#}!', 'Hello !', ['']],
		['a variable of exactly 30 characters', 'Hi {#var#}, welcome', `Hi ${'a'.repeat(30)}, welcome`, ['a'.repeat(30)]],
		['30 Hindi characters (counted as characters, not bytes)', 'नमस्ते {#var#}', `नमस्ते ${'क'.repeat(30)}`, ['क'.repeat(30)]],
		['line breaks where the template has them', 'OTP {#var#}.\nTeam Acme', 'OTP 1234.\nTeam Acme', ['1234']],
		['static text that also occurs inside a variable', 'Hi {#var#} and {#var#}', `Hi a and b and ${'c'.repeat(30)}`, ['a and b', 'c'.repeat(30)]],
	])('%s', (_name, template, body, variables) => {
		expect(matchTemplate(compileTemplate(template), body)).toEqual({ matches: true, variables });
		expect(dltMatches(template, body)).toBe(true);
	});

	it('a link the service shortens counts as its short link (Shorten URL)', () => {
		const long = `https://n8n.example.com/webhook-waiting/4821/3f2a9c?answer=approve&signature=${'f'.repeat(64)}`;
		const template = compileTemplate('Approve the refund?\n\nApprove: {#var#}');
		expect(matchTemplate(template, `Approve the refund?\n\nApprove: ${long}`, true)).toEqual({ matches: true, variables: [long] });
		expect(matchTemplate(template, `Approve the refund?\n\nApprove: ${long}`, false).matches).toBe(false);
	});
});

describe('a message that differs, and where', () => {
	it.each([
		[
			'a missing closing phrase',
			OTP,
			'Your OTP for login is 482913. Do not share it with anyone.',
			'Body differs from the DLT template at character 59: the template goes on with " - Acme" and the body ends',
		],
		[
			'a changed line break',
			'Your OTP is {#var#}.\nTeam Acme',
			'Your OTP is 482913. Team Acme',
			'Body differs from the DLT template at character 20: the template has ".\\n" and the body ". "',
		],
		[
			'a doubled space',
			ORDER,
			'Dear Asha,  your order ORD-4721 of Rs. 499 has shipped. - Acme Retail',
			'Body differs from the DLT template at character 12: the template has "your" and the body " you"',
		],
		[
			'a case change',
			OTP,
			'Your otp for login is 482913. Do not share it with anyone. - Acme',
			'Body differs from the DLT template at character 6: the template has "OTP" and the body "otp"',
		],
		[
			'punctuation (Rs. written Rs)',
			ORDER,
			'Dear Asha, your order ORD-4721 of Rs 499 has shipped. - Acme Retail',
			'Body differs from the DLT template at character 37: the template has "Rs." and the body "Rs "',
		],
		[
			'a variable of 31 characters',
			'Dear {#var#}, welcome to Acme',
			`Dear ${'A'.repeat(31)}, welcome to Acme`,
			'Variable 1 is 31 characters; DLT allows 30',
		],
		[
			'a second variable too long',
			ORDER,
			`Dear Asha, your order ${'X'.repeat(34)} of Rs. 499 has shipped. - Acme Retail`,
			'Variable 2 is 34 characters; DLT allows 30',
		],
		[
			'a template without variables and a longer text',
			'Your account is now active. - Acme',
			'Your account is now active. - Acme. Welcome!',
			'Body differs from the DLT template at character 35: the template ends and the body goes on with ". Welcome!"',
		],
		[
			'text before a variable at the start',
			'{#var#} is your OTP. - Acme',
			'482913 is your one-time password. - Acme',
			'Body differs from the DLT template at character 16: the template has "OTP." and the body "one-"',
		],
		[
			'text after a variable at the end',
			'Track your parcel: {#var#}',
			'Track your order: AWB 9911223344',
			'Body differs from the DLT template at character 12: the template has "parcel:" and the body "order: "',
		],
	])('%s', (_name, template, body, problem) => {
		expect(problemOf(template, body)).toBe(problem);
		expect(dltMatches(template, body)).toBe(false);
	});

	it('counts the character where the texts part in characters, a Hindi or emoji character being one', () => {
		expect(problemOf('नमस्ते {#var#}, धन्यवाद', 'नमस्ते आशा, धन्यवाद!')).toBe(
			'Body differs from the DLT template at character 20: the template ends and the body goes on with "!"',
		);
		expect(problemOf('Hi 👋 {#var#}. Bye', 'Hi 👋 Asha. bye')).toBe('Body differs from the DLT template at character 12: the template has "Bye" and the body "bye"');
	});

	it('names the text it checked: the RCS fallback\'s', () => {
		const compiled = compileTemplate('Dear {#var#}, welcome');
		const body = `Dear ${'A'.repeat(40)}, welcome`;
		const match = matchTemplate(compiled, body) as Extract<DltMatch, { matches: false }>;
		expect(dltProblem(match, compiled, body, 'Fallback Text')).toBe('Fallback Text: variable 1 is 40 characters; DLT allows 30');
	});
});

describe('the sandbox\'s scrubbing agrees with the check', () => {
	it('on generated messages around one template (edits of its text, variables of every length)', () => {
		const template = 'Dear {#var#}, Rs. {#var#} is due on {#var#}.\nPay at {#var#} - Acme';
		const compiled = compileTemplate(template);
		const variants: string[] = [];
		for (const length of [0, 1, 29, 30, 31, 45]) {
			variants.push(`Dear ${'n'.repeat(length)}, Rs. 499 is due on 5 Dec.\nPay at acme.in/p - Acme`);
			variants.push(`Dear Asha, Rs. ${'9'.repeat(length)} is due on 5 Dec.\nPay at acme.in/p - Acme`);
		}
		const base = 'Dear Asha, Rs. 499 is due on 5 Dec.\nPay at acme.in/p - Acme';
		for (let i = 0; i < base.length; i++) {
			variants.push(base.slice(0, i) + base.slice(i + 1)); // a character dropped
			variants.push(`${base.slice(0, i)}x${base.slice(i)}`); // one added
		}
		const disagreements = variants.filter((body) => matchTemplate(compiled, body).matches !== dltMatches(template, body));
		expect(disagreements).toEqual([]);
		expect(variants.filter((body) => dltMatches(template, body)).length).toBeGreaterThan(10);
		expect(variants.filter((body) => !dltMatches(template, body)).length).toBeGreaterThan(10);
	});

	it('reads --dlt-template ID=TEXT, \\n as a line break', () => {
		expect(parseDltTemplate('1107161234567890123=Your OTP is {#var#}.\\nTeam Acme')).toEqual(['1107161234567890123', 'Your OTP is {#var#}.\nTeam Acme']);
		expect(() => parseDltTemplate('no-equals-sign')).toThrow('ID=TEXT');
	});
});
