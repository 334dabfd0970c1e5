import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** Where a downloaded file goes: the name of the output item's binary field. */
export function outputFileField(file: string, more: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		hint: `The name of the output binary field to put the ${file} in`,
		...more,
	};
}

/** Output items with the files downloaded for their input items; a failed item gets none. */
export function withBinaries(output: INodeExecutionData[], binaries: Map<number, INodeExecutionData['binary']>): INodeExecutionData[] {
	return output.map((item) => {
		const binary = binaries.get((item.pairedItem as { item: number }).item);
		return binary && !item.json.error ? { ...item, binary } : item;
	});
}
