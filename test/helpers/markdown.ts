/**
 * Reading the repository's Markdown the way GitHub renders it, for the documentation tests:
 * headings and their anchors (GitHub's slugs), sections under a heading, and links.
 */

export interface Heading {
	/** 1 for `#`, 2 for `##`, ... */
	level: number;
	/** The heading as written, without the `#`s. */
	text: string;
	/** Its line, counted from 0. */
	line: number;
}

export interface Link {
	/** What is in the parentheses: a URL, a path, `#anchor` or `path#anchor`. */
	target: string;
	image: boolean;
	/** The line it starts on, counted from 1 (for messages). */
	line: number;
}

const FENCE = /^\s*(```|~~~)/;

/** The text with fenced code blocks blanked out line for line, so line numbers stay. */
function withoutFences(markdown: string): string {
	let inFence = false;
	return markdown
		.split('\n')
		.map((line) => {
			if (FENCE.test(line)) {
				inFence = !inFence;
				return '';
			}
			return inFence ? '' : line;
		})
		.join('\n');
}

/** ATX headings (`## Text`) outside code blocks. */
export function headings(markdown: string): Heading[] {
	return withoutFences(markdown)
		.split('\n')
		.flatMap((line, index) => {
			const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
			return match ? [{ level: match[1].length, text: match[2], line: index }] : [];
		});
}

/**
 * GitHub's anchor for a heading (github-slugger): the rendered text, lower-cased, with every character
 * that is not a letter, a digit, `_`, `-` or a space removed, then each space turned into `-`.
 */
export function githubSlug(heading: string): string {
	const rendered = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image shows its text
		.replace(/[`*]/g, '') // code and emphasis marks are not text
		.trim();
	return rendered
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/** Every anchor a file's headings give, with GitHub's `-1`, `-2`, ... for repeats. */
export function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const heading of headings(markdown)) {
		const slug = githubSlug(heading.text);
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		result.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return result;
}

/** The text under a heading written exactly `text`, up to the next heading of the same or a higher level. */
export function section(markdown: string, text: string): string | undefined {
	const all = headings(markdown);
	const index = all.findIndex((heading) => heading.text === text);
	if (index < 0) return undefined;
	const start = all[index];
	const end = all.slice(index + 1).find((heading) => heading.level <= start.level);
	return markdown
		.split('\n')
		.slice(start.line + 1, end ? end.line : undefined)
		.join('\n');
}

/** Inline links and images outside code (`[text](target)`, `![alt](target)`), titles dropped. */
export function links(markdown: string): Link[] {
	// a code span may wrap a line but not cross a blank one; keep its newlines so line numbers stay
	const text = withoutFences(markdown).replace(/``(?:(?!\n\s*\n)[^`])+``|`(?:(?!\n\s*\n)[^`])+`/g, (code) => code.replace(/[^\n]/g, 'x'));
	const result: Link[] = [];
	for (const match of text.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
		const line = text.slice(0, match.index).split('\n').length;
		result.push({ target: match[2], image: match[1] === '!', line });
	}
	return result;
}
