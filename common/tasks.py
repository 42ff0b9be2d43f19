from celery import shared_task


@shared_task(name="common.echo")
def echo_task(*, value: str) -> dict:
    """A task with no side effects, so deployments and CI can prove a worker consumes from the broker."""
    return {"echo": value}
