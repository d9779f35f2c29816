// A usage source's name (the network key's name, or usage:import's --source): 1 to 100 letters, digits and . _ : -.
// The one rule for both: a network key's name is its records' source (decision 034). Its own module, so a page's
// form takes it without the record's rules.
export const USAGE_SOURCE_PATTERN = /^[\p{L}\p{N}._:-]{1,100}$/u;
