"""web accounts and submissions: users, their sessions and login attempts; submitted results

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02 17:00:00

Issue 23 (``ledger serve``). Four new tables and nothing else changed: ``users`` (an account:
its name and key, role, Argon2id password hash, whether it must change a one-time password,
whether it is disabled), ``web_sessions`` (the SHA-256 of each logged-in session's token),
``login_attempts`` (what the login throttle counts) and ``submissions`` (results submitted on
the web: the bytes as submitted, their SHA-256, the findings of their validation, the review).
A ledger upgraded to 0014 has no user: the first is made with ``ledger user add``. Downgrading
drops the four tables (and with them every account and every submission not yet accepted).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'users',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=100), nullable=False),
        sa.Column('name_key', sa.String(length=200), nullable=False),
        sa.Column('role', sa.String(length=20), nullable=False),
        sa.Column('password_hash', sa.Text(), nullable=False),
        sa.Column('must_change_password', sa.Boolean(), nullable=False),
        sa.Column('disabled', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('password_changed_at', sa.DateTime(), nullable=False),
        sa.CheckConstraint("role IN ('reporter', 'officer', 'admin')", name=op.f('ck_users_role')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_users')),
        sa.UniqueConstraint('name_key', name=op.f('uq_users_name_key')),
    )
    op.create_table(
        'web_sessions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('token_sha256', sa.String(length=64), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.Column('address', sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_web_sessions_user_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_web_sessions')),
        sa.UniqueConstraint('token_sha256', name=op.f('uq_web_sessions_token_sha256')),
    )
    op.create_index(op.f('ix_web_sessions_user_id'), 'web_sessions', ['user_id'], unique=False)
    op.create_table(
        'login_attempts',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name_key', sa.String(length=200), nullable=False),
        sa.Column('address', sa.String(length=64), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('succeeded', sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_login_attempts')),
    )
    op.create_index('ix_login_attempts_name_key_at', 'login_attempts', ['name_key', 'at'], unique=False)
    op.create_index('ix_login_attempts_address_at', 'login_attempts', ['address', 'at'], unique=False)
    op.create_table(
        'submissions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('submitted_at', sa.DateTime(), nullable=False),
        sa.Column('filename', sa.String(length=255), nullable=True),
        sa.Column('format', sa.String(length=10), nullable=False),
        sa.Column('content', sa.LargeBinary(), nullable=False),
        sa.Column('sha256', sa.String(length=64), nullable=False),
        sa.Column('options', sa.Text(), nullable=True),
        sa.Column('findings', sa.Text(), nullable=True),
        sa.Column('state', sa.String(length=10), nullable=False),
        sa.Column('reviewed_by', sa.Integer(), nullable=True),
        sa.Column('reviewed_at', sa.DateTime(), nullable=True),
        sa.Column('reason', sa.Text(), nullable=True),
        sa.Column('change_id', sa.Integer(), nullable=True),
        sa.Column('replaces', sa.Integer(), nullable=True),
        sa.CheckConstraint("state IN ('pending', 'accepted', 'rejected', 'withdrawn')",
                           name=op.f('ck_submissions_state')),
        sa.ForeignKeyConstraint(['replaces'], ['submissions.id'],
                                name=op.f('fk_submissions_replaces_submissions')),
        sa.ForeignKeyConstraint(['reviewed_by'], ['users.id'], name=op.f('fk_submissions_reviewed_by_users')),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_submissions_user_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_submissions')),
    )
    op.create_index(op.f('ix_submissions_state'), 'submissions', ['state'], unique=False)
    op.create_index(op.f('ix_submissions_user_id'), 'submissions', ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_submissions_user_id'), table_name='submissions')
    op.drop_index(op.f('ix_submissions_state'), table_name='submissions')
    op.drop_table('submissions')
    op.drop_index('ix_login_attempts_address_at', table_name='login_attempts')
    op.drop_index('ix_login_attempts_name_key_at', table_name='login_attempts')
    op.drop_table('login_attempts')
    op.drop_index(op.f('ix_web_sessions_user_id'), table_name='web_sessions')
    op.drop_table('web_sessions')
    op.drop_table('users')
