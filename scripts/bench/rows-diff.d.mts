export type StatementRows = { sql: string; rowsRead: number; returned: number };
export type Grown = { sql: string; smallRows: number; largeRows: number; smallReturned: number; largeReturned: number };
export const STATEMENT_ROWS_LOG: string;
export function rowsGrowthByStatement(
  small: StatementRows[] | null | undefined,
  large: StatementRows[] | null | undefined,
): Grown[];
export function statementLabel(sql: string): string;
export function rowsGrowthTable(pages: { name: string; rowsGrowthBy?: Grown[] }[], top?: number): string;
