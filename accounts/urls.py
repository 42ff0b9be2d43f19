from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from accounts.api.views import AccountCreateApi, TokenObtainApi

urlpatterns = [
    path("admin/login/", views.admin_login),  # before the admin's own URLs: the log-in limit
    path("accounts/login/", views.ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", views.signup, name="signup"),
    path("api/v1/auth/token/", TokenObtainApi.as_view(), name="api-token"),
    path("api/v1/accounts/", AccountCreateApi.as_view(), name="api-account-create"),
]
