// Shared by forms and their actions: the key under which a refusal that names no field is shown.
export const FORM_ERROR = '_form';
