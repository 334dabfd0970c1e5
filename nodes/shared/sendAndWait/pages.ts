// The pages a person sees after tapping an SMS approval link: the question with one button, then
// the answer recorded. Labels are the user's own words ("Approve", "Confirm", "Reschedule"), so no
// page puts a word of ours before them; every text of the user's is escaped.
import type { Choice } from './waitingItem';

/** Longest browser title; the page itself shows the whole question. */
const TITLE_LENGTH = 100;

const STYLE =
	'body{font:1.05rem/1.5 system-ui,sans-serif;max-width:30rem;margin:2.5rem auto;padding:0 1rem;color:#1f2937}' +
	'h1{font-size:1.35rem;white-space:pre-line}.question{white-space:pre-line;color:#4b5563}' +
	'button{font:inherit;font-size:1.1rem;padding:.7rem 1.4rem;border:0;border-radius:.4rem;background:#2563eb;color:#fff;cursor:pointer}';

/** A title from the question: one line, cut at a word when long. */
export function titleOf(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	if (line.length <= TITLE_LENGTH) return line;
	const cut = line.slice(0, TITLE_LENGTH - 1);
	const space = cut.lastIndexOf(' ');
	return `${(space > TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function html(title: string, body: string): string {
	return (
		'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
		`<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`
	);
}

/**
 * The page a link opens: the question as its title and heading, and one button with the label of
 * the answer the link carries. Pressing it posts the answer; opening the page answers nothing.
 */
export function approvalPage(question: string | null, choice: Choice): string {
	const text = (question ?? '').trim();
	const heading = text || 'Your answer';
	return html(
		text ? titleOf(text) : 'Your answer',
		`<h1>${escapeHtml(heading)}</h1><p>Press the button to send your answer.</p>` +
			`<form method="post" action=""><input type="hidden" name="answer" value="${escapeHtml(choice.id)}">` +
			`<button type="submit" name="confirm" value="1">${escapeHtml(choice.title)}</button></form>`,
	);
}

/** The page after the button: the answer recorded, the question it answers. */
export function answeredPage(question: string | null, choice: Choice): string {
	const text = (question ?? '').trim();
	return html(
		`Answer recorded: ${titleOf(choice.title)}`,
		'<h1>Answer recorded</h1>' +
			(text ? `<p class="question">${escapeHtml(text)}</p>` : '') +
			`<p>Your answer: <strong>${escapeHtml(choice.title)}</strong></p><p>You can close this page.</p>`,
	);
}

/** The page of a link that carries no answer of this question. */
export function unknownLinkPage(): string {
	return html('Link not recognised', '<h1>Link not recognised</h1><p>This link does not carry an answer. Open the link from the message again.</p>');
}

/** Escapes text for an HTML page. */
export function escapeHtml(text: unknown): string {
	return String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}
