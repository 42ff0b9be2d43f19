"""Every write of the floor app: one transaction each, with an audit entry (see the modules)."""
