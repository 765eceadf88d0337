import * as tz from './src/processing/local/timezone.ts';
import * as chrono from 'chrono-node';
