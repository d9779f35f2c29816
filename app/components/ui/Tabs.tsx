// The parts of one place as tabs: links (each part is its own page, so they work without JS), the current one
// marked (aria-current from NavLink). "Säkerhet" and "Mitt företag" both use it (issue 41: one component, not tabs in
// one place and a row of links in the other).
import { NavLink } from '@remix-run/react';

export function Tabs({ label, items }: { label: string; items: ReadonlyArray<{ to: string; label: string }> }) {
  return (
    <nav className="tabs" aria-label={label}>
      {items.map((item) => (
        <NavLink key={item.to} to={item.to} end>
          {item.label}
        </NavLink>
      ))}
    </nav>
  );
}
