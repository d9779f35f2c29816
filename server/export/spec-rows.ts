// The rows and header block of the invoice specification, as read from the database and written into the workbook.
import type { Day, Period, YearMonth } from '#domain/export/periods.ts';

export type PlanInfo = {
  id: number;
  description: string;
  dataLimit: number;
  call: boolean;
  sms: boolean;
  roaming: boolean;
};

export type SpecRow = {
  simId: number;
  month: YearMonth;
  iccid: string;
  invoiceLineMark: string;
  invoiceLineNote: string;
  plan: PlanInfo;
  from: Day;
  to: Day;
  days: number;
};

export type SpecHeader = {
  companyName: string;
  customerNumber: string;
  invoiceNote: string;
  period: Period;
  generatedAt: string;
};

/** A SIM's data use in one month of the period, for the sheet "Förbrukning" (./usage-sheet.ts). */
export type UsageRow = {
  month: YearMonth;
  iccid: string;
  invoiceLineMark: string;
  bytesUp: number;
  bytesDown: number;
};
