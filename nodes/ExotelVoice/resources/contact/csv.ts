/** A cell as RFC 4180 writes it: quoted when it holds a comma, a quote, a line break or edge spaces. */
export function csvCell(value: string): string {
	return /[\u0022,\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The CSV file of a header row and data rows, CRLF line ends, UTF-8. */
export function csvOf(header: readonly string[], rows: string[][]): Buffer {
	const lines = [header, ...rows].map((row) => row.map(csvCell).join(','));
	return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

/** Records (rows after the header that are not blank) and the header cells, reading quotes properly. */
export function csvShape(text: string): { header: string[]; records: number } {
	let header: string[] | undefined;
	let cells: string[] = [];
	let cell = '';
	let quoted = false;
	let records = 0;
	let blank = true;
	const endRow = () => {
		cells.push(cell);
		if (!header) header = cells.map((h) => h.trim().toLowerCase());
		else if (!blank) records++;
		cells = [];
		cell = '';
		blank = true;
	};
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (c === '"') quoted = false;
			else cell += c;
			blank = false;
		} else if (c === '"' && cell === '') {
			quoted = true;
			blank = false;
		} else if (c === ',') {
			cells.push(cell);
			cell = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[i + 1] === '\n') i++;
			endRow();
		} else {
			cell += c;
			if (c.trim()) blank = false;
		}
	}
	if (cell !== '' || cells.length) endRow();
	return { header: header ?? [], records };
}
