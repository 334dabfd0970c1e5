/**
 * A test-only node type that turns each item into a CSV file in binary field `data` (or the item's
 * `property`): from the item's `csv` text, or `records` generated rows, or about `bytes` bytes.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

export const CSV_FILE_NODE_TYPE = 'test.csvFile';

export class CsvFileNode implements INodeType {
	description = {
		displayName: 'CSV File',
		name: 'test.csvFile',
		group: ['input'],
		version: 1,
		description: 'Makes a CSV binary per item (test only)',
		defaults: { name: 'CSV File' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const json = items[i].json as { csv?: string; records?: number; bytes?: number; fileName?: string; mimeType?: string; property?: string };
			let data: Buffer;
			if (json.bytes !== undefined) {
				const row = '+919845000001,Asha\n';
				data = Buffer.from(`phone_number,first_name\n${row.repeat(Math.ceil(json.bytes / row.length))}`);
			} else if (json.records !== undefined) {
				data = Buffer.from(`phone_number\n${Array.from({ length: json.records }, (_, r) => `+91984${String(r).padStart(7, '0')}`).join('\n')}\n`);
			} else {
				data = Buffer.from(json.csv ?? '', 'utf8');
			}
			const binary = await this.helpers.prepareBinaryData(data, json.fileName ?? 'contacts.csv', json.mimeType ?? 'text/csv');
			out.push({ json: { file: i }, binary: { [json.property ?? 'data']: binary }, pairedItem: { item: i } });
		}
		return [out];
	}
}
