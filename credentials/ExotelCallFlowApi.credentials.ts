import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * What the Exotel Call Flow Trigger checks a call-flow request by. The service cannot sign these
 * requests, so the secret is a segment of the URL's path (kept out of its query string, which the
 * service replaces with its own parameters), and the addresses the requests may come from narrow it.
 */
export class ExotelCallFlowApi implements ICredentialType {
	name = 'exotelCallFlowApi';

	displayName = 'Exotel Call Flow API';

	icon: Icon = { light: 'file:../icons/exotel.svg', dark: 'file:../icons/exotel.dark.svg' };

	documentationUrl = 'https://developer.exotel.com/docs/app-bazaar/passthru-applet-guide';

	properties: INodeProperties[] = [
		{
			displayName: 'URL Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: "At least 16 characters: put it in place of :secret in the trigger's URL when you paste that URL into the applet. A request with another secret is refused (401).",
		},
		{
			displayName: 'Allowed Addresses',
			name: 'allowedAddresses',
			type: 'string',
			default: '',
			placeholder: '203.0.113.10, 198.51.100.0/24',
			description: "IP addresses or IPv4 ranges the service's requests may come from, comma-separated; empty allows any. Behind a proxy, n8n must be told to trust it (N8N_PROXY_HOPS) for the caller's address to be seen.",
		},
	];
}
