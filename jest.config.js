/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }],
	},
	testTimeout: 30000,
	// The real-n8n suite installs n8n once (about 4 minutes cold) before its first test.
	globalSetup: undefined,
};
