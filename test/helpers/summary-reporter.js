// Prints the plain closing line CI reads ("Tests: N passed, N failed, N skipped") as the very
// last line of the run, after jest's own summary.
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
		const line = `Tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped\n`;
		process.once('exit', () => process.stdout.write(`\n${line}`));
	}
}
module.exports = SummaryReporter;
