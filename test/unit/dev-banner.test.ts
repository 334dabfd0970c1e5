/**
 * `npm run dev`'s last lines: few enough that the address and the login stay on a terminal's screen
 * (they come last), one example to try, and where the rest is.
 */
import { readyBanner, TRY_IT_FILE } from '../../scripts/dev';

const LOGIN = { email: 'owner@e2e.test', password: 'E2eOwnerDummyPassw0rd' };
const SMS = { name: 'Exotel: send an SMS when a webhook arrives', curl: "curl -s -X POST 'http://127.0.0.1:5678/webhook/order-shipped'" };

describe('npm run dev: the ready banner', () => {
	it('ends with the address and the login; one example to try; the rest in the try-it file', () => {
		const lines = readyBanner({ version: '2.41.1', baseUrl: 'http://127.0.0.1:5678', login: LOGIN, first: SMS });
		expect(lines.at(-1)).toBe('n8n 2.41.1 is ready: http://127.0.0.1:5678  (log in as owner@e2e.test / E2eOwnerDummyPassw0rd)');
		expect(lines[0]).toBe(`try "${SMS.name}": ${SMS.curl}`);
		expect(lines).toContain("every example's webhook URLs, a ready curl each, and how to answer as the person: cat .dev/try-it.txt");
		expect(lines).toHaveLength(4);
		expect(TRY_IT_FILE.endsWith('/.dev/try-it.txt')).toBe(true);
	});

	it('notes (live mode, the scripted model) come first; the login still last', () => {
		const lines = readyBanner({ version: '2.8.4', baseUrl: 'http://127.0.0.1:5678', login: LOGIN, notes: ['the sandbox is in live mode (--live)'] });
		expect(lines[0]).toBe('the sandbox is in live mode (--live)');
		expect(lines.at(-1)).toMatch(/^n8n 2\.8\.4 is ready: .* \(log in as owner@e2e\.test \/ E2eOwnerDummyPassw0rd\)$/);
		expect(lines).toHaveLength(4);
	});
});
