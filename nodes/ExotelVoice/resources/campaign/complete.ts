import { campaignAction } from './action';

export const { option, description, execute } = campaignAction({ name: 'Complete', value: 'complete', action: 'Complete a campaign', description: 'End a paused campaign; its remaining calls are marked failed' });
