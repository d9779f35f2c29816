// The house's own lint rules, loaded by eslint.config.js as the local plugin `local`.
import longFileReason from './long-file-reason.js';

export default {
  meta: { name: 'local' },
  rules: { 'long-file-reason': longFileReason },
};
