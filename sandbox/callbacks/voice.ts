/**
 * Voice callbacks: the v1 call status callbacks of a call placed with Calls/connect. Their form
 * fields are built by handlers/callStatus.ts (in the spec's order); here they become posts,
 * form-encoded and unsigned.
 */
import { formPost } from './payload';
import type { ScheduledReport } from './types';

/**
 * One v1 call status callback of a connected call (handlers/callStatus.ts builds the form pairs, in the
 * spec's order): posted form-encoded and unsigned at `delayMs` (before timeScale) after the connect.
 */
export interface CallStatusReport {
	delayMs: number;
	url: string;
	callSid: string;
	fields: () => Array<[string, string]>;
}

/** The posts of a connected call's status callbacks (answered, terminal), in order. */
export function callStatusReports(reports: readonly CallStatusReport[]): ScheduledReport[] {
	return reports.map((report) => ({
		delayMs: report.delayMs,
		make: () => formPost(report.url, 'call-status', report.fields(), { messageSid: report.callSid }),
	}));
}
