from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from django.contrib import admin

        from accounts import throttling  # noqa: F401 - connects the log-in limit's signal receivers
        from accounts.views import ThrottledAdminAuthenticationForm

        admin.site.login_form = ThrottledAdminAuthenticationForm
