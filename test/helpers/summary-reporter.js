// Prints the plain closing line CI reads ("Tests: N passed, N failed, N skipped") as the very
// last line of the run, after jest's own summary. Above it, when something failed, one short
// block per failure (file, test, the first lines of its message): CI keeps only part of a long
// log, and jest prints a file's console output before its failures.
const path = require('path');

const MESSAGE_LINES = 12;

function firstLines(text) {
	const plain = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
	return plain
		.split('\n')
		.filter((line) => line.trim() !== '' && !/^\s*at .*(node_modules|node:internal)/.test(line))
		.slice(0, MESSAGE_LINES)
		.map((line) => `    ${line}`)
		.join('\n');
}

class SummaryReporter {
	onRunComplete(_contexts, results) {
		const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
		const failures = [];
		for (const file of results.testResults) {
			const where = path.relative(process.cwd(), file.testFilePath);
			// a file that did not run, or whose beforeAll/afterAll threw
			if (file.testExecError) failures.push(`  ${where} (the file or a hook failed)\n${firstLines(file.testExecError.message || file.failureMessage)}`);
			for (const test of file.testResults) {
				if (test.status !== 'failed') continue;
				failures.push(`  ${where} › ${test.fullName}\n${firstLines(test.failureMessages.join('\n'))}`);
			}
		}
		const failed = failures.length ? `\nFailed:\n${failures.join('\n')}\n` : '';
		const broken = results.numRuntimeErrorTestSuites;
		const outside = broken ? `; ${broken} file${broken === 1 ? '' : 's'} failed outside ${broken === 1 ? 'its' : 'their'} tests` : '';
		const line = `Tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped${outside}\n`;
		process.once('exit', () => process.stdout.write(`${failed}\n${line}`));
	}
}
module.exports = SummaryReporter;
