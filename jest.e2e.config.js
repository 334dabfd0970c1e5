/**
 * The real-n8n stages (`npm test` runs them on n8n 2.8.4 and on the newest): one long-lived n8n per
 * stage, started by the globalSetup, that every test file attaches to (test/harness/stage.ts).
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
	...base,
	roots: ['<rootDir>/test/e2e'],
	// the tests of n8n's CLI start n8n processes of their own: a stage of their own beside this one
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/cli/'],
	globalSetup: '<rootDir>/test/harness/stage-setup.ts',
	globalTeardown: '<rootDir>/test/harness/stage-teardown.ts',
};
