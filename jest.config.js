/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// the system stage has its own config (jest.system.config.js, `npm run test:system`)
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/system/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	testTimeout: 30000,
	reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
};
