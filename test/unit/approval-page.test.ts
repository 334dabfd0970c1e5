/**
 * The pages an SMS approval link opens read naturally whatever the labels: the question is the
 * title and heading, the button says the link's own label and nothing before it ("Confirm", never
 * "Confirm: Confirm"), and the page after it says which answer was recorded. Everything of the
 * user's is escaped.
 */
import { answeredPage, approvalPage, titleOf, unknownLinkPage } from '../../nodes/shared/sendAndWait/pages';
import type { Choice } from '../../nodes/shared/sendAndWait/waitingItem';

const QUESTION = 'Approve the refund of ₹1,200 for order #4721?';

/** The page's parts, read the way a person reads them. */
function read(html: string) {
	const title = /<title>([\s\S]*?)<\/title>/.exec(html)?.[1];
	const heading = /<h1>([\s\S]*?)<\/h1>/.exec(html)?.[1];
	const buttons = [...html.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/g)].map((match) => match[1]);
	const text = html
		.replace(/<style>[\s\S]*?<\/style>|<title>[\s\S]*?<\/title>/g, '')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return { title, heading, buttons, text };
}

// Label sets users give, the defaults among them, and labels equal to words a page could add.
const LABEL_SETS: Array<[string, Choice[]]> = [
	['the defaults', [{ id: 'approve', title: 'Approve' }, { id: 'decline', title: 'Decline' }]],
	['Confirm / Reschedule', [{ id: 'approve', title: 'Confirm' }, { id: 'decline', title: 'Reschedule' }]],
	['Yes / No', [{ id: 'approve', title: 'Yes' }, { id: 'decline', title: 'No' }]],
	['words of the page itself', [{ id: 'approve', title: 'Send answer' }, { id: 'decline', title: 'Answer recorded' }]],
	['approve only, with punctuation', [{ id: 'approve', title: 'OK!' }]],
];

describe.each(LABEL_SETS)('labels: %s', (_name, choices) => {
	it.each(choices.map((choice) => [choice.title, choice] as const))('the "%s" link: the question as title, one button with the label alone', (_label, choice) => {
		const html = approvalPage(QUESTION, choice);
		const page = read(html);
		expect(page.title).toBe(QUESTION);
		expect(page.heading).toBe(QUESTION);
		expect(page.buttons).toEqual([choice.title]);
		expect(page.text).toBe(`${QUESTION} Press the button to send your answer. ${choice.title}`);
		expect(html).not.toContain(`: ${choice.title}<`);
		expect(html).not.toContain('Confirm:');
		// the form posts the link's answer and the button's value, nothing else
		expect(html).toMatch(new RegExp(`<form method="post" action=""><input type="hidden" name="answer" value="${choice.id}"><button type="submit" name="confirm" value="1">`));
	});

	it.each(choices.map((choice) => [choice.title, choice] as const))('after "%s": which answer was recorded, to which question', (_label, choice) => {
		const page = read(answeredPage(QUESTION, choice));
		expect(page.title).toBe(`Answer recorded: ${choice.title}`);
		expect(page.heading).toBe('Answer recorded');
		expect(page.buttons).toEqual([]);
		expect(page.text).toBe(`Answer recorded ${QUESTION} Your answer: ${choice.title} You can close this page.`);
	});
});

describe('the approval pages', () => {
	it('escape the question and the labels', () => {
		const choice = { id: 'approve', title: '<b>Yes</b> & "sure"' };
		const html = approvalPage('<script>alert(1)</script> Proceed?', choice);
		expect(html).not.toContain('<script>');
		expect(html).not.toContain('<b>');
		expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Proceed?');
		expect(read(html).buttons).toEqual(['&lt;b&gt;Yes&lt;/b&gt; &amp; &quot;sure&quot;']);
		const after = answeredPage('It\'s <ok>', choice);
		expect(after).toContain('<title>Answer recorded: &lt;b&gt;Yes&lt;/b&gt; &amp; &quot;sure&quot;</title>');
		expect(after).toContain('It&#39;s &lt;ok&gt;');
		// an id is the node's own (approve, decline), escaped all the same
		expect(approvalPage('Q', { id: '"><x', title: 'A' })).toContain('value="&quot;&gt;&lt;x"');
	});

	it('without a question, say what the page is for', () => {
		const page = read(approvalPage(null, { id: 'approve', title: 'Approve' }));
		expect(page.title).toBe('Your answer');
		expect(page.heading).toBe('Your answer');
		expect(page.buttons).toEqual(['Approve']);
		expect(read(answeredPage('  ', { id: 'approve', title: 'Approve' })).text).toBe('Answer recorded Your answer: Approve You can close this page.');
	});

	it('a long or multi-line question: a one-line title cut at a word, the whole question on the page', () => {
		const long = `Hi Ravi,\nyour appointment is on Mon 2 Dec, 10:30 at the Indiranagar clinic with Dr. Asha Rao. Tap a link to confirm or reschedule.`;
		const page = read(approvalPage(long, { id: 'approve', title: 'Confirm' }));
		expect(page.title!.length).toBeLessThanOrEqual(100);
		expect(page.title).toMatch(/^Hi Ravi, your appointment is on Mon 2 Dec, 10:30 .*\S…$/);
		expect(long.replace(/\s+/g, ' ').startsWith(page.title!.slice(0, -1))).toBe(true);
		expect(page.heading).toBe(long);
		expect(titleOf('Short question?')).toBe('Short question?');
		expect(titleOf(` Two\n lines `)).toBe('Two lines');
		expect(titleOf('x'.repeat(150))).toBe(`${'x'.repeat(99)}…`);
	});

	it('a link that carries no answer says so', () => {
		const page = read(unknownLinkPage());
		expect(page.title).toBe('Link not recognised');
		expect(page.buttons).toEqual([]);
		expect(page.text).toContain('Open the link from the message again.');
	});

	it('keep their titles within the first 500 characters (what a link preview reads)', () => {
		const before = approvalPage(QUESTION, { id: 'approve', title: 'Approve' });
		expect(before.indexOf('</title>')).toBeLessThan(500);
		const after = answeredPage(QUESTION, { id: 'approve', title: 'Approve' });
		expect(after.indexOf('</title>')).toBeLessThan(500);
	});
});
