import { stopStage } from './stage';

export default stopStage;
