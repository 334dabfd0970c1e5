/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/sandbox'],
	testMatch: ['**/*.test.ts'],
	// the system stage has its own config (jest.system.config.js, `npm run test:system`)
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/system/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	// Only a hang detector: every wait inside a test is bounded and says what it waited for, and a
	// busy machine runs a test several times slower than a quiet one.
	testTimeout: 300_000,
	reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
};
