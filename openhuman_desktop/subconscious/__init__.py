"""The subconscious loop: heartbeat, tick engine, situation report, evaluation, execution, approvals."""
