import type { CliFigures } from './cli-bench';
import type { IndexFigures } from './index-bench';

export interface TargetCheck {
  name: string;
  value: number;
  limit: number;
  pass: boolean;
}

export interface ScaleFigures {
  quick: boolean;
  workspace: { files: number; units: number; totalMb: number; rawMb: number; generationMs: number };
  index: IndexFigures;
  cli: CliFigures;
  targets: TargetCheck[];
}
