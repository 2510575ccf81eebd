import type { BackendScaleFigures } from './backend-scale';
import type { CliCompareFigures } from './cli-compare';

export interface SizeFigures {
  units: number;
  files: number;
  chunks: number | undefined;
  mb: number;
  generationMs: number;
  queries: number;
  backends: BackendScaleFigures[];
}

export interface RetrievalFigures {
  quick: boolean;
  sizes: SizeFigures[];
  cli: CliCompareFigures & { units: number };
}
