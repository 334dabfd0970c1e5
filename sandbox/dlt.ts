/**
 * DLT scrubbing as the operators do it: a message sent with a DltTemplateId the sandbox was given a
 * template for (`--dlt-template ID=TEXT`, `SandboxOptions.dltTemplates`) must match it, the static
 * text exactly and each `{#var#}` at most 30 characters; one that does not is accepted and then fails
 * with 23185 DLT_TEMPLATE_DOES_NOT_MATCH (the service's public SMS status list). Written as one
 * regular expression over the escaped template, a method apart from the node's own check.
 */

/** The message's text must match this template (a template without a registered id is not checked). */
export function dltMatches(template: string, text: string): boolean {
	const escape = (part: string) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
	const pattern = template
		.split(/\{#var#\}/)
		.map((part) => part.split(/\{#[a-z]+#\}/).map(escape).join('[\\s\\S]*'))
		.join('[\\s\\S]{0,30}');
	return new RegExp(`^${pattern}$`, 'u').test(text);
}

/** `ID=TEXT` (repeatable on the command line) into id → template text. */
export function parseDltTemplate(spec: string): [string, string] {
	const at = spec.indexOf('=');
	if (at <= 0 || at === spec.length - 1) throw new Error(`--dlt-template takes ID=TEXT (got '${spec}')`);
	return [spec.slice(0, at).trim(), spec.slice(at + 1).replace(/\\n/g, '\n')];
}
