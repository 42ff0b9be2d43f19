import os

from django.core.wsgi import get_wsgi_application

from common.request_body import drained

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = drained(get_wsgi_application())
