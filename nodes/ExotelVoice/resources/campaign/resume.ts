import { campaignAction } from './action';

export const { option, description, execute } = campaignAction({ name: 'Resume', value: 'resume', action: 'Resume a campaign', description: 'Resume a paused campaign' });
