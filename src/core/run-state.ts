/**
 * Where a run stands: a pull, a consolidated pull, a bulk run or an edit push,
 * in the same words from the engines to the sidebars.
 */
export type RunStatus = 'running' | 'done' | 'failed' | 'cancelled';
