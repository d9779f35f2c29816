// /company/users: the users are listed on /company ("< Backa" from a user's page leads here).
import { redirect } from '@remix-run/node';

export const loader = () => redirect('/company');
