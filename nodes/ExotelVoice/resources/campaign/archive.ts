import { campaignAction } from './action';

export const { option, description, execute } = campaignAction({ name: 'Archive', value: 'archive', action: 'Archive a campaign', description: 'Archive a completed campaign' });
