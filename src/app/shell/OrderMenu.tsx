// 'Order Stains', headed 'Slide Management' (spec §2.4, §2.5): entries the user may not use are
// disabled with the tooltip 'You don't have permissions to create'.
import { Button, Menu } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { canCreateScanGroup, canCreateScanOrder } from '../../access';
import { Denied } from '../../api/messages';
import { DeniedTooltip } from '../lib/DeniedTooltip';
import { useAbility } from '../session/ability';

export function OrderMenu() {
  const { ability, me } = useAbility();
  const navigate = useNavigate();
  const entries = [
    { title: 'Generate Slide Labels', to: '/orders/slides/new', allowed: canCreateScanGroup(ability, me) },
    { title: 'Active Labels', to: '/orders/slides/active', allowed: true },
    { title: 'Generate Orders', to: '/orders/new', allowed: canCreateScanOrder(ability, me) },
    { title: 'Pending Orders', to: '/orders/pending', allowed: true },
    { title: 'Order History', to: '/orders/history', allowed: true },
  ];
  return (
    <Menu position="bottom-start" width={240} withinPortal>
      <Menu.Target>
        <Button variant="light">Order Stains</Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Slide Management</Menu.Label>
        {entries.map((e) =>
          e.allowed ? (
            <Menu.Item key={e.to} onClick={() => void navigate({ to: e.to })}>
              {e.title}
            </Menu.Item>
          ) : (
            <DeniedTooltip key={e.to} reason={Denied.noCreatePermission} block>
              <Menu.Item disabled>{e.title}</Menu.Item>
            </DeniedTooltip>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
