import { campaignAction } from './action';

export const { option, description, execute } = campaignAction({ name: 'Pause', value: 'pause', action: 'Pause a campaign', description: 'Pause a created or running campaign' });
