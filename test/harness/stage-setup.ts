import { startStage } from './stage';

export default startStage;
