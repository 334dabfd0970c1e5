/* eslint-disable @n8n/community-nodes/no-restricted-globals -- times its checks (process.hrtime); never shipped */
/**
 * DLT pre-flight bench: N personalised SMS (one in ten differing from its template, as a list with
 * mistakes would) checked against their DLT template the way the SMS sends check them (the template
 * compiled once per distinct text, each body matched in one pass, the problem worded for those that
 * differ); beside what a user would write in a Code node, a regular expression built from the
 * escaped template for every item with `[\s\S]{0,30}` per variable (the sandbox's own scrubbing,
 * sandbox/dlt.ts); and beside one request to the sandbox at --latency (what one SMS send costs at
 * the least). Nothing here runs n8n: it is the check's own CPU time.
 */
import { compileTemplate, dltProblem, dltTemplates, matchTemplate, type DltMatch } from '../../nodes/ExotelMessaging/dlt';
import { dltMatches } from '../../sandbox/dlt';
import { SANDBOX_ACCOUNT } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { round } from './common';

const TEMPLATE = 'Dear {#var#}, your order {#var#} of Rs. {#var#} has shipped and arrives on {#var#}. Track it at {#var#} - Acme Retail';

export interface DltReport {
	items: number;
	latencyMs: number;
	package: { firstMs: number; ms: number; usPerMessage: number; refused: number };
	codeNode: { firstMs: number; ms: number; usPerMessage: number; refused: number };
	oneRequestMs: number;
}

function bodies(count: number): string[] {
	return Array.from({ length: count }, (_, i) => {
		const rs = i % 10 === 3 ? 'Rs' : 'Rs.';
		return `Dear Customer ${i}, your order ORD-${100000 + i} of ${rs} ${(i % 5000) + 99} has shipped and arrives on ${1 + (i % 28)} Dec. Track it at acme.in/t/${i} - Acme Retail`;
	});
}

function timed<T>(run: () => T): { ms: number; value: T } {
	const started = process.hrtime.bigint();
	const value = run();
	return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}

export async function runDltBench(options: { items: number; latencyMs: number; log: (line: string) => void }): Promise<DltReport> {
	const texts = bodies(options.items);
	const check = () => {
		const templates = dltTemplates();
		let refused = 0;
		for (const body of texts) {
			const template = templates(TEMPLATE);
			const match = matchTemplate(template, body);
			if (!match.matches) {
				dltProblem(match as Extract<DltMatch, { matches: false }>, template, body, 'Body');
				refused++;
			}
		}
		return refused;
	};
	const codeNode = () => texts.filter((body) => !dltMatches(TEMPLATE, body)).length;
	// the first pass of each (what one execution in a fresh n8n process pays, compiling included),
	// then the median of five once warm (a long-running n8n)
	compileTemplate(TEMPLATE);
	options.log(`dlt: checking ${options.items} messages, six times each way`);
	const median = (runs: Array<{ ms: number; value: number }>) => [...runs].sort((a, b) => a.ms - b.ms)[2];
	const warm = (run: () => number) => median(Array.from({ length: 5 }, () => timed(run)));
	const oursFirst = timed(check);
	const theirsFirst = timed(codeNode);
	for (let i = 0; i < 3; i++) {
		check();
		codeNode();
	}
	const ours = warm(check);
	const theirs = warm(codeNode);
	if (ours.value !== theirs.value) throw new Error(`the two checks disagree: ${ours.value} and ${theirs.value} refused`);

	const sandbox = new ExotelSandbox({ latencyMs: options.latencyMs });
	const origin = await sandbox.start();
	try {
		const auth = Buffer.from(`${SANDBOX_ACCOUNT.apiKey}:${SANDBOX_ACCOUNT.apiToken}`).toString('base64');
		const send = async () =>
			await fetch(`${origin}/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/send`, {
				method: 'POST',
				headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ From: 'ACMEIN', To: '+919876543210', Body: texts[0] }).toString(),
			}).then(async (res) => await res.text());
		await send();
		const started = process.hrtime.bigint();
		await send();
		const oneRequestMs = Number(process.hrtime.bigint() - started) / 1e6;
		return {
			items: options.items,
			latencyMs: options.latencyMs,
			package: { firstMs: round(oursFirst.ms, 2), ms: round(ours.ms, 2), usPerMessage: round((ours.ms * 1000) / options.items, 2), refused: ours.value },
			codeNode: { firstMs: round(theirsFirst.ms, 2), ms: round(theirs.ms, 2), usPerMessage: round((theirs.ms * 1000) / options.items, 2), refused: theirs.value },
			oneRequestMs: round(oneRequestMs, 2),
		};
	} finally {
		await sandbox.stop();
	}
}

export function formatDltReport(report: DltReport): string {
	return [
		`DLT pre-flight: ${report.items} SMS against one template (${report.package.refused} differ)`,
		'| check | first pass ms | warm ms (median of 5) | µs per message warm |',
		'| --- | --- | --- | --- |',
		`| Exotel node (compiled once, one pass per body) | ${report.package.firstMs} | ${report.package.ms} | ${report.package.usPerMessage} |`,
		`| Code node (a regular expression built per item) | ${report.codeNode.firstMs} | ${report.codeNode.ms} | ${report.codeNode.usPerMessage} |`,
		`| one SMS send request to the sandbox at ${report.latencyMs} ms latency | ${report.oneRequestMs} | - | - |`,
	].join('\n');
}
