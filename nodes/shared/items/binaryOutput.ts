import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeOperationError } from 'n8n-workflow';

import { requestPerItem } from './requestPerItem';

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

/** A file downloaded for an item: its bytes, its name and its kind. */
export interface DownloadedFile {
	data: Buffer;
	fileName: string;
	mimeType: string;
}

/**
 * requestPerItem for operations that may download a file per item: `send` gives the item's json
 * and, when it downloaded one, its file, which goes into the binary field the item names
 * (`binaryPropertyName`, as outputFileField asks for it). An item that fails gets no file.
 */
export async function requestPerItemWithFile<T extends { itemIndex: number; binaryPropertyName: string }>(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => T | NodeOperationError,
	send: (entry: T) => Promise<{ json: IDataObject; file?: DownloadedFile }>,
	options?: Parameters<typeof requestPerItem>[4],
): Promise<INodeExecutionData[]> {
	const binaries = new Map<number, IBinaryKeyData>();
	const output = await requestPerItem(
		context,
		items,
		prepare,
		async (entry) => {
			const { json, file } = await send(entry);
			if (file) {
				const binary = await context.helpers.prepareBinaryData(file.data, file.fileName, file.mimeType);
				binaries.set(entry.itemIndex, { [entry.binaryPropertyName]: binary });
			}
			return json;
		},
		options,
	);
	// Each output item gets the file of its input item; a failed item gets none.
	return output.map((item) => {
		const binary = binaries.get((item.pairedItem as { item: number }).item);
		return binary && !item.json.error ? { ...item, binary } : item;
	});
}
