import type { TargetCheck } from '../scale/scale-figures';
import type { HeadFigures } from './head-bench';
import type { LifecycleCliFigures } from './lifecycle-cli-bench';

export interface WorkingFigures {
  quick: boolean;
  project: { units: number; files: number; rawKb: number };
  head: HeadFigures;
  cliWorkspace: { files: number; units: number; totalMb: number };
  cli: LifecycleCliFigures;
  targets: TargetCheck[];
}
