/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a stand-in process for npm run dev (process, setInterval); never shipped */
/**
 * A stand-in for `npm run dev` in test/unit/dev-stop.test.ts: it watches for a stop request as
 * dev.ts does (scripts/dev-stop.ts), says `ready <pid>`, and on a request says why and exits.
 */
import { onStopRequest } from '../../scripts/dev-stop';

onStopRequest(
	(reason) => {
		process.stdout.write(`stopping: ${reason}\n`);
		process.exit(0);
	},
	{ pollMs: 100 },
);
process.stdout.write(`ready ${process.pid}\n`);
// stays up, as dev does, until asked to stop
setInterval(() => undefined, 60_000);
