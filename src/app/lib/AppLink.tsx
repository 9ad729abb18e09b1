// An in-app link to an already-built path (e.g. `/image/${id}`), styled as a Mantine Anchor.
import type { ReactNode } from 'react';
import { Anchor } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';

export function AppLink({ href, children }: { href: string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <Anchor
      href={href}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        void navigate({ href });
      }}
    >
      {children}
    </Anchor>
  );
}
