/**
 * The system stage (`npm run test:system`): n8n in queue mode with Redis and PostgreSQL, and the
 * editor in Debian's Chromium. Needs the Debian packages redis-server, postgresql and chromium.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
	...base,
	roots: ['<rootDir>/test/system'],
	testPathIgnorePatterns: [],
	testTimeout: 600_000,
};
